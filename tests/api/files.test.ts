/**
 * Files and geometry as field types (issue 27 item 5; docs/resources.md "Files") through the
 * API on every engine: an upload is refused over the field's size (before its body is read,
 * when the declared length says so), with a type the field does not accept, as a script
 * disguised as an image, as SVG; a photo gets its thumbnail; attaching it to a record is
 * audited; a file is read by those who may read its record and by nobody else (another
 * farm's user meets the same 404 as a missing file); an upload on no record is its
 * uploader's only; a file taken off its record is no longer served and its bytes go; the
 * geometry rules apply to a resource outside the land area (a pest report's map point).
 */
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { engines } from '../support/engines.ts';
import { sweepFiles } from '../../server/files/plugin.ts';
import { storageFor } from '../../server/files/storage.ts';

const REPORTS = '/api/weatherAndSituation/insect';
const UPLOAD = '/api/files?resource=insectReports&field=photos';

function multipart(name: string, type: string, data: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----farmtest7MA4YWxkTrZu0gW';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(engines())('files on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let jpeg: Buffer;
  let png: Buffer;
  const report = (extra: Record<string, unknown> = {}) => ({ place: '东区一号地块', observedOn: '2026-06-10', pest: '玉米螟', grade: 2, ...extra });

  const upload = async (auth: string, name: string, type: string, data: Buffer, url = UPLOAD, lang = 'en') => {
    const { payload, headers } = multipart(name, type, data);
    return t.app.inject({ method: 'POST', url, payload, headers: { ...headers, authorization: auth, 'accept-language': lang } });
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
    farm2 = `Bearer ${await t.login('farm2')}`;
    jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#4a7d2c' } }).jpeg({ quality: 80 }).toBuffer();
    png = await sharp({ create: { width: 64, height: 48, channels: 4, background: '#c0392b' } }).png().toBuffer();
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('takes a photo, makes its thumbnail, attaches it with an audit row, and serves it to its farm only', async () => {
    const up = await upload(farm, '玉米螟.jpg', 'image/jpeg', jpeg);
    expect(up.statusCode, up.body).toBe(200);
    const meta = up.json().data;
    expect(meta).toMatchObject({ name: '玉米螟.jpg', type: 'image/jpeg', size: jpeg.length, width: 800, height: 600, thumbnail: true });

    // Before it is on a record: its uploader reads it, nobody else does.
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}`, headers: { authorization: farm } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}`, headers: { authorization: farm2 } })).statusCode).toBe(404);

    // Another farm's user cannot take it onto a record of theirs.
    const stolen = await t.app.inject({ method: 'POST', url: REPORTS, payload: report({ photos: [meta.id] }), headers: { authorization: farm2, 'accept-language': 'en' } });
    expect(stolen.json().status, stolen.body).toBe(40001);
    expect(stolen.json().data.errors[0]).toMatchObject({ field: 'photos' });
    expect(stolen.json().data.errors[0].message).toContain('does not exist or has expired');

    const created = await t.app.inject({ method: 'POST', url: REPORTS, payload: report({ photos: [meta.id] }), headers: { authorization: farm } });
    expect(created.json().status, created.body).toBe(200);
    const record = created.json().data;
    expect(record.photos).toEqual([meta.id]);

    const log = await t.db.query<{ action: string; record_id: string; changes: { field: string; file: { id: number } } }>(
      `SELECT action, record_id, changes FROM operation_log WHERE action = 'files.attach' AND resource = 'insectReports' ORDER BY id DESC LIMIT 1`,
    );
    expect(log.rows[0]).toMatchObject({ record_id: String(record.id), changes: { field: 'photos', file: { id: meta.id } } });

    const file = await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}`, headers: { authorization: farm } });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(file.rawPayload, jpeg)).toBe(0);
    const thumb = await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}/thumbnail`, headers: { authorization: farm } });
    expect(thumb.statusCode).toBe(200);
    const facts = await sharp(thumb.rawPayload).metadata();
    expect([facts.format, facts.width, facts.height]).toEqual(['jpeg', 320, 240]);

    // Another farm's user: the same 404 as a file that does not exist.
    for (const url of [`/api/files/${meta.id}`, `/api/files/${meta.id}/thumbnail`, `/api/files/${meta.id}/meta`]) {
      const other = await t.app.inject({ method: 'GET', url, headers: { authorization: farm2 } });
      expect(other.statusCode, url).toBe(404);
      expect(other.json().status).toBe(40401);
    }
    const missing = await t.app.inject({ method: 'GET', url: '/api/files/2147483000', headers: { authorization: farm } });
    expect(missing.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}` })).statusCode).toBe(401);

    // Taken off the record: no longer served, logged, and its bytes go with the next sweep.
    const updated = await t.app.inject({ method: 'PUT', url: `${REPORTS}/${record.id}`, payload: { ...report(), photos: [], version: record.version }, headers: { authorization: farm } });
    expect(updated.json().status, updated.body).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/files/${meta.id}`, headers: { authorization: farm } })).statusCode).toBe(404);
    const detach = await t.db.query(`SELECT 1 FROM operation_log WHERE action = 'files.detach' AND record_id = $1`, [String(record.id)]);
    expect(detach.rows).toHaveLength(1);
    const storage = storageFor(t.config.fileStorage, t.config.dataDir);
    const key = (await t.db.query<{ storage_key: string }>('SELECT storage_key FROM files WHERE id = $1', [meta.id])).rows[0].storage_key;
    expect(await storage.get(key)).not.toBeNull();
    expect(await sweepFiles(t.db, storage)).toBeGreaterThanOrEqual(1);
    expect((await t.db.query('SELECT 1 FROM files WHERE id = $1', [meta.id])).rows).toHaveLength(0);
    expect(await storage.get(key)).toBeNull();
  });

  it('refuses a wrong type, a script disguised as an image and SVG, by content, in the caller language', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const wrong = await upload(farm, 'report.pdf', 'application/pdf', pdf);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.errors).toEqual([{ field: 'photos', message: 'Photos: only JPEG / PNG / WebP files are accepted (recognised by their content, not their name)' }]);

    const script = await upload(farm, 'image.png', 'image/png', Buffer.from('<script>alert(document.cookie)</script>'), UPLOAD, 'zh');
    expect(script.statusCode).toBe(400);
    expect(script.json().data.errors[0].message).toBe('照片：只接受 JPEG / PNG / WebP 文件（按文件内容识别，与文件名无关）');

    const svg = await upload(farm, 'leaf.png', 'image/svg+xml', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), UPLOAD, 'es');
    expect(svg.json().data.errors[0].message).toContain('no se aceptan imágenes SVG');

    // PNG magic bytes on garbage: not an image sharp can read.
    const fake = Buffer.concat([png.subarray(0, 16), Buffer.alloc(200, 7)]);
    const broken = await upload(farm, 'x.png', 'image/png', fake);
    expect(broken.json().data.errors[0].message).toContain('cannot be read');

    // A field that is not a file field, and a caller without the resource's authority.
    const notField = await t.app.inject({ method: 'POST', url: '/api/files?resource=insectReports&field=place', ...multipart('a.png', 'image/png', png), headers: { ...multipart('a.png', 'image/png', png).headers, authorization: farm } });
    expect(notField.json().status).toBe(40001);
    expect((await t.db.query(`SELECT count(*)::int AS n FROM files WHERE uploaded_by = (SELECT id FROM users WHERE username = 'farm') AND record_id IS NULL`)).rows[0]).toEqual({ n: 0 });
  });

  it('refuses a file over the field size, and a declared length over it before reading the body', async () => {
    const big = await sharp(randomBytes(1500 * 1500 * 3), { raw: { width: 1500, height: 1500, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const over = await upload(farm, 'big.png', 'image/png', big);
    expect(over.statusCode).toBe(413);
    expect(over.json().data.errors).toEqual([{ field: 'photos', message: 'Photos: the file is too large; each file may be at most 5 MB' }]);

    // A real socket: the headers promise 50 MB, 1 KB is sent, and the answer comes anyway.
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${UPLOAD} HTTP/1.1\r\nHost: x\r\nAuthorization: ${farm}\r\nAccept-Language: en\r\nContent-Type: multipart/form-data; boundary=abc\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
        );
        socket.write(Buffer.alloc(1024, 1));
      });
      let text = '';
      socket.on('data', (d) => {
        text += d.toString();
        if (text.includes('"status":40001')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      setTimeout(() => reject(new Error(`no answer: ${text}`)), 5000).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('at most 5 MB');
  });

  it('validates a geometry on a resource outside the land area (a pest report map point)', async () => {
    const bad = await t.app.inject({ method: 'POST', url: REPORTS, payload: report({ location: JSON.stringify({ type: 'Point', coordinates: [200, 45] }) }), headers: { authorization: farm, 'accept-language': 'en' } });
    expect(bad.json().status, bad.body).toBe(40001);
    expect(bad.json().data.errors[0].field).toBe('location');
    const polygon = await t.app.inject({
      method: 'POST',
      url: REPORTS,
      payload: report({ location: JSON.stringify({ type: 'Polygon', coordinates: [[[126, 45], [126.01, 45], [126.01, 45.01], [126, 45]]] }) }),
      headers: { authorization: farm, 'accept-language': 'en' },
    });
    expect(polygon.json().data.errors[0]).toMatchObject({ field: 'location' });
    const good = await t.app.inject({
      method: 'POST',
      url: REPORTS,
      payload: report({ location: '{"type":"Point","coordinates":[126.6355, 45.7562],"extra":1}'.replace(',"extra":1', '') }),
      headers: { authorization: farm },
    });
    expect(good.json().status, good.body).toBe(200);
    expect(JSON.parse(good.json().data.location)).toEqual({ type: 'Point', coordinates: [126.6355, 45.7562] });
  });
});
