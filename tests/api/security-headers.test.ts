import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { originOf } from '../../server/http/security-headers.ts';

/** Issue 11 item 5: the headers every reply carries (headers only: one engine is enough). */
describe('security headers', () => {
  let t: TestApp;
  let behindProxy: TestApp;
  const previous = process.env.TRUST_PROXY;

  beforeAll(async () => {
    const dist = mkdtempSync(join(tmpdir(), 'farm-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><script type="module" src="/assets/app.js"></script>');
    writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
    const config = { distDir: dist, instructionVideoUrl: 'https://video.example.org/guide.mp4', tileUrl: 'https://{s}.tiles.example.net/{z}/{x}/{y}.png' };
    delete process.env.TRUST_PROXY;
    t = await createTestApp(engines()[0], config);
    process.env.TRUST_PROXY = '1';
    behindProxy = await createTestApp(engines()[0], config);
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = previous;
    await t?.close();
    await behindProxy?.close();
  });

  const csp = (header: unknown) =>
    Object.fromEntries(
      String(header)
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name, values]),
    );

  it('sends nosniff, a referrer policy, frame protection and a CSP without inline script on the console, the API and errors', async () => {
    for (const url of ['/', '/login', '/assets/app.js', '/api/openapi.json', '/api/admin/user/front/info?token=x', '/api/nowhere']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      const policy = csp(res.headers['content-security-policy']);
      expect(policy['frame-ancestors'], url).toEqual(["'none'"]);
      expect(policy['default-src'], url).toEqual(["'self'"]);
      expect(policy['script-src'], url).toEqual(["'self'", "'unsafe-eval'"]);
      expect(policy['script-src-attr'], url).toEqual(["'none'"]);
      expect(policy['object-src'], url).toEqual(["'none'"]);
      expect(policy['style-src'], url).toEqual(["'self'", "'unsafe-inline'"]);
      expect(policy, url).not.toHaveProperty('upgrade-insecure-requests');
      expect(res.headers['x-powered-by'], url).toBeUndefined();
    }
  });

  it('allows the configured instruction video and map tile hosts, and nothing else foreign but https images', async () => {
    const policy = csp((await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(policy['media-src']).toEqual(["'self'", 'blob:', 'https://video.example.org']);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https:', 'https://*.tiles.example.net']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://*.tiles.example.net']);
    expect(originOf('')).toBeNull();
    expect(originOf('javascript:alert(1)')).toBeNull();
    expect(originOf("https://a.example.org'; script-src *")).toBeNull();
    expect(originOf('http://tiles.local:8088/{z}/{x}/{y}.png')).toBe('http://tiles.local:8088');
  });

  it('sends Strict-Transport-Security only over TLS', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a forwarded protocol is not believed.
    const forged = await t.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
    const tls = await behindProxy.app.inject({ method: 'GET', url: '/api/openapi.json', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(tls.headers['x-content-type-options']).toBe('nosniff');
    const plain = await behindProxy.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
