/**
 * Where the bytes of uploaded files live (docs/resources.md, "Files"): one small interface,
 * two implementations. The database keeps the file's row (name, type, size, owner, the record
 * it is on) and the keys; a storage keeps only bytes under a key, so moving the files to
 * another store never touches a record.
 *
 * - `FolderStorage` (the default): `<DATA_DIR>/files/<key>`, written to a temporary name and
 *   renamed, so a reader never sees half a file.
 * - `S3Storage`: any S3-compatible object store (AWS S3, MinIO, Ceph, OSS/COS in S3 mode),
 *   signed with AWS Signature V4 by hand (node:crypto and fetch; no SDK), path-style or
 *   virtual-hosted addressing. Configured by FILE_STORAGE=s3 and the S3_* variables
 *   (server/config.ts).
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileStorageConfig } from '../config.ts';

export interface FileStorage {
  /** Stores `data` under `key` (replacing what was there). */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Removes `key`; removing a key that does not exist is not an error. */
  remove(key: string): Promise<void>;
  /** For logs and the health of the configuration: "folder /data/files", "s3 bucket@endpoint". */
  readonly description: string;
}

/** Keys are made by the server (files.ts): lower-case letters, digits, `/`, `-` and `.`. */
const KEY = /^[a-z0-9][a-z0-9/.-]{0,200}$/;
function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}

export class FolderStorage implements FileStorage {
  private readonly root: string;
  constructor(dir: string) {
    this.root = resolve(dir);
  }
  get description(): string {
    return `folder ${this.root}`;
  }
  private path(key: string): string {
    const p = resolve(this.root, checkKey(key));
    if (!p.startsWith(this.root + sep)) throw new Error(`storage key outside the folder: ${key}`);
    return p;
  }
  async put(key: string, data: Buffer): Promise<void> {
    const path = this.path(key);
    await mkdir(dirname(path), { recursive: true });
    const part = `${path}.${process.pid}.part`;
    await writeFile(part, data);
    await rename(part, path);
  }
  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.path(key));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }
  async remove(key: string): Promise<void> {
    await rm(this.path(key), { force: true });
  }
}

export interface S3Options {
  /** https://s3.eu-west-1.amazonaws.com, http://127.0.0.1:9000 (MinIO) … */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys are stored under this prefix (`farm/`), '' for the bucket's root. */
  prefix: string;
  /** `https://endpoint/bucket/key` (MinIO and most self-hosted stores) rather than `https://bucket.endpoint/key`. */
  pathStyle: boolean;
  fetch?: typeof fetch;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** An S3-compatible object store, signed with AWS Signature Version 4 (headers, not query). */
export class S3Storage implements FileStorage {
  private readonly doFetch: typeof fetch;
  constructor(private readonly o: S3Options) {
    this.doFetch = o.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }
  get description(): string {
    return `s3 ${this.o.bucket}@${this.o.endpoint}`;
  }

  /** The request's URL and its signed headers (exported for the signing test). */
  sign(method: 'GET' | 'PUT' | 'DELETE', key: string, body: Buffer | null, now = new Date(), extra: Record<string, string> = {}): { url: string; headers: Record<string, string> } {
    const base = new URL(this.o.endpoint);
    const objectKey = `${this.o.prefix}${checkKey(key)}`;
    const encodedKey = objectKey.split('/').map(encodeURIComponent).join('/');
    const host = this.o.pathStyle ? base.host : `${this.o.bucket}.${base.host}`;
    const basePath = base.pathname.replace(/\/$/, '');
    const path = this.o.pathStyle ? `${basePath}/${encodeURIComponent(this.o.bucket)}/${encodedKey}` : `${basePath}/${encodedKey}`;
    const amzDate = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const day = amzDate.slice(0, 8);
    const payloadHash = sha256(body ?? '');
    const headers: Record<string, string> = { host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDate, ...extra };
    const names = Object.keys(headers).map((h) => h.toLowerCase()).sort();
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v.trim()]));
    const canonical = [method, path, '', ...names.map((n) => `${n}:${lower[n]}`), '', names.join(';'), payloadHash].join('\n');
    const scope = `${day}/${this.o.region}/s3/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
    const kDate = hmac(`AWS4${this.o.secretAccessKey}`, day);
    const kSigning = hmac(hmac(hmac(kDate, this.o.region), 's3'), 'aws4_request');
    const signature = createHmac('sha256', kSigning).update(toSign).digest('hex');
    const out = { ...headers };
    delete out.host;
    out.authorization = `AWS4-HMAC-SHA256 Credential=${this.o.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
    return { url: `${base.protocol}//${host}${path}`, headers: out };
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const { url, headers } = this.sign('PUT', key, data, new Date(), { 'content-type': contentType });
    const res = await this.doFetch(url, { method: 'PUT', headers, body: new Uint8Array(data) });
    if (!res.ok) throw new Error(`object store PUT ${key}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  }
  async get(key: string): Promise<Buffer | null> {
    const { url, headers } = this.sign('GET', key, null);
    const res = await this.doFetch(url, { method: 'GET', headers });
    if (res.status === 404) return null;
    if (!res.ok) throw new Error(`object store GET ${key}: HTTP ${res.status}`);
    return Buffer.from(await res.arrayBuffer());
  }
  async remove(key: string): Promise<void> {
    const { url, headers } = this.sign('DELETE', key, null);
    const res = await this.doFetch(url, { method: 'DELETE', headers });
    if (!res.ok && res.status !== 404) throw new Error(`object store DELETE ${key}: HTTP ${res.status}`);
  }
}

/** The storage the configuration names (server/config.ts: FILE_STORAGE, S3_*). */
export function storageFor(config: FileStorageConfig, dataDir: string): FileStorage {
  if (config.kind === 's3') return new S3Storage(config);
  return new FolderStorage(config.dir ?? join(dataDir, 'files'));
}
