import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { precompressDir } from '../../tools/precompress.ts';
import { IMMUTABLE_CACHE, isHashedAsset } from '../../server/http/static.ts';

// How the server delivers the console and the API (docs/resources.md → docs/console.md
// "Serving"): compressed when asked, hashed assets immutable, index.html revalidated.
const HASHED = 'assets/index-Ab3_dE-9.js';
const UNCOMPRESSED_COPY = 'assets/late-Zz9yXx8w.css';

const script = `console.log(${JSON.stringify('农场 farm '.repeat(400))});\n`;
const indexHtml = `<!doctype html><html><head><title>农场</title><script type="module" src="/${HASHED}"></script></head><body>${'<div id="root"></div>'.repeat(80)}</body></html>`;
const css = `.table-row { color: #333; padding: 4px 8px; }\n`.repeat(60);

describe('serving the console and the API', () => {
  let t: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'serving-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), indexHtml);
    writeFileSync(join(dist, HASHED), script);
    await precompressDir(dist);
    // Written after the build step: no .br/.gz copy, so it is compressed on the fly.
    writeFileSync(join(dist, UNCOMPRESSED_COPY), css);
    t = await createTestApp(engines()[0], { distDir: dist });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('sends the precompressed brotli or gzip copy of a hashed asset, cached for a year as immutable', async () => {
    const br = await get(`/${HASHED}`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe(IMMUTABLE_CACHE);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 4);

    const gz = await get(`/${HASHED}`, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    expect(gz.headers['cache-control']).toBe(IMMUTABLE_CACHE);

    const plain = await get(`/${HASHED}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe(IMMUTABLE_CACHE);
  });

  it('compresses a text file that has no precompressed copy on the fly', async () => {
    const r = await get(`/${UNCOMPRESSED_COPY}`, { 'accept-encoding': 'gzip' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(r.rawPayload).toString()).toBe(css);
  });

  it('serves index.html with no-cache and an ETag, and 304 when the ETag still matches', async () => {
    const first = await get('/', { 'accept-encoding': 'br' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(first.rawPayload).toString()).toBe(indexHtml);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const changed = await get('/', { 'accept-encoding': 'br', 'if-none-match': '"not-the-etag"' });
    expect(changed.statusCode).toBe(200);
  });

  it('gives client-side routes the same index.html, status 200, no-cache, ETag and 304', async () => {
    const first = await get('/agricultureKnowledge/cropsManager');
    expect(first.statusCode).toBe(200);
    expect(first.body).toBe(indexHtml);
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await get('/agricultureKnowledge/cropsManager', { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
  });

  it('compresses JSON replies of the API above the threshold when asked, and only then', async () => {
    const br = await get('/api/openapi.json', { 'accept-encoding': 'br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    const doc = JSON.parse(brotliDecompressSync(br.rawPayload).toString());
    expect(doc.openapi).toMatch(/^3\./);
    const plain = await get('/api/openapi.json');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(br.rawPayload.length * 5);
    // A small reply (an envelope of a few dozen bytes) goes as it is.
    const small = await get('/api/no-such-route', { 'accept-encoding': 'br' });
    expect(small.statusCode).toBe(404);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses a page of the resource engine for a signed-in user', async () => {
    const token = await t.login('admin');
    const r = await get('/api/kms/crops/page?pageSize=100', { authorization: token, 'accept-encoding': 'gzip' });
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(r.rawPayload).toString()).status).toBe(200);
  });

  it('keeps connections alive between requests', async () => {
    expect(t.app.server.keepAliveTimeout).toBeGreaterThanOrEqual(60_000);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ports: number[] = [];
    for (let i = 0; i < 3; i++) {
      const { headers, localPort } = await new Promise<{ headers: Record<string, unknown>; localPort: number }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/${HASHED}`, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ headers: res.headers, localPort: req.socket!.localPort! }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(headers.connection).toBe('keep-alive');
      expect(headers['keep-alive']).toMatch(/timeout=\d+/);
      ports.push(localPort);
    }
    agent.destroy();
    // One TCP connection served all three requests.
    expect(new Set(ports).size).toBe(1);
  });

  it('tells hashed build output from other files', () => {
    expect(isHashedAsset('assets/vendor-antd-BwMu0igb.js')).toBe(true);
    expect(isHashedAsset('assets/vendor-antd-BwMu0igb.js.br')).toBe(true);
    expect(isHashedAsset('assets/form-schema-D5O5YDv-.js')).toBe(true);
    expect(isHashedAsset('index.html')).toBe(false);
    expect(isHashedAsset('favicon.svg')).toBe(false);
    expect(isHashedAsset('assets/logo.svg')).toBe(false);
  });
});
