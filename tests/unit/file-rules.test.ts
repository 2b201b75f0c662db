/**
 * The files module's pure rules (server/files/): the type from the first bytes (a script or
 * an SVG named image.png is none of the accepted types), the folder storage (round trip, keys
 * that would leave the folder refused), and the S3 storage's request signature against the
 * example of AWS's Signature Version 4 documentation (GET /test.txt with a Range header).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { looksLikeSvg, sniff } from '../../server/files/sniff.ts';
import { FolderStorage, S3Storage } from '../../server/files/storage.ts';
import { cleanName } from '../../server/files/plugin.ts';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('sniff', () => {
  it('names JPEG, PNG, WebP and PDF by their magic bytes and nothing else', () => {
    expect(sniff(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10))).toBe('image/jpeg');
    expect(sniff(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(sniff(Buffer.from('RIFF\u0010\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(sniff(Buffer.from('%PDF-1.7\n'))).toBe('application/pdf');
    expect(sniff(Buffer.from('<script>alert(1)</script>'))).toBeNull();
    expect(sniff(Buffer.from('GIF89a'))).toBeNull();
    expect(sniff(Buffer.from('RIFF\u0010\u0000\u0000\u0000WAVEfmt '))).toBeNull();
    expect(sniff(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
  });
  it('tells SVG apart, to say so', () => {
    expect(looksLikeSvg(Buffer.from('\uFEFF  <?xml version="1.0"?><svg/>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'))).toBe(true);
    expect(looksLikeSvg(Buffer.from('<script>'))).toBe(false);
  });
  it('cleans names: no path, no control characters, a default', () => {
    expect(cleanName('C:\\Users\\a\\photo 1.jpg', 'image/jpeg')).toBe('photo 1.jpg');
    expect(cleanName('../../etc/pass\u0000wd<x>.png', 'image/png')).toBe('passwdx.png');
    expect(cleanName('', 'application/pdf')).toBe('file.pdf');
  });
});

describe('storage', () => {
  it('keeps bytes in the folder and refuses keys that would leave it', async () => {
    const storage = new FolderStorage(mkdtempSync(join(tmpdir(), 'files-')));
    await storage.put('2026-06/abc', Buffer.from('hello'));
    expect((await storage.get('2026-06/abc'))?.toString()).toBe('hello');
    await storage.remove('2026-06/abc');
    expect(await storage.get('2026-06/abc')).toBeNull();
    await storage.remove('2026-06/abc');
    await expect(storage.put('../outside', Buffer.from('x'))).rejects.toThrow(/invalid storage key/);
    await expect(storage.get('/etc/passwd')).rejects.toThrow(/invalid storage key/);
  });

  it('signs S3 requests as the AWS Signature Version 4 example does', () => {
    const s3 = new S3Storage({
      endpoint: 'https://s3.amazonaws.com',
      region: 'us-east-1',
      bucket: 'examplebucket',
      accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
      secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      prefix: '',
      pathStyle: false,
    });
    const { url, headers } = s3.sign('GET', 'test.txt', null, new Date('2013-05-24T00:00:00Z'), { range: 'bytes=0-9' });
    expect(url).toBe('https://examplebucket.s3.amazonaws.com/test.txt');
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    const path = new S3Storage({ endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', bucket: 'farm', accessKeyId: 'a', secretAccessKey: 'b', prefix: 'demo/', pathStyle: true });
    expect(path.sign('PUT', '2026-06/abc.thumb.jpg', Buffer.from('x')).url).toBe('http://127.0.0.1:9000/farm/demo/2026-06/abc.thumb.jpg');
  });
});
