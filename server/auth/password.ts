import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashes: scrypt with a random salt. The stored string carries its own
 * parameters (`scrypt$N$r$p$salt$hash`, base64url), so the cost can be raised later
 * without breaking hashes already stored; `needsRehash` tells when one is outdated.
 */
const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
// A stored hash is data: refuse parameters that would make one verification absurdly slow or large.
const MAX_N = 1 << 20;
const MAX_R = 32;
const MAX_P = 4;

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (n: number, r: number) => 256 * n * r + 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password, salt, KEY_LENGTH, { N, r: R, p: P, maxmem: maxmem(N, R) });
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

interface Parsed {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  key: Buffer;
}

function parse(stored: string): Parsed | null {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  if (![n, r, p].every(Number.isInteger) || n < 2 || n > MAX_N || (n & (n - 1)) !== 0 || r < 1 || r > MAX_R || p < 1 || p > MAX_P) {
    return null;
  }
  const salt = Buffer.from(parts[4], 'base64url');
  const key = Buffer.from(parts[5], 'base64url');
  if (salt.length < 8 || key.length < 16) return null;
  return { n, r, p, salt, key };
}

/** True when `password` matches `stored`; false for a mismatch or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const key = await scrypt(password, parsed.salt, parsed.key.length, { N: parsed.n, r: parsed.r, p: parsed.p, maxmem: maxmem(parsed.n, parsed.r) });
  return timingSafeEqual(key, parsed.key);
}

/** True when `stored` was made with weaker parameters than today's. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n < N || parsed.r < R || parsed.p < P;
}

let dummy: Promise<string> | undefined;
/**
 * Spends the time of one verification without a user, so that an unknown username
 * answers as slowly as a wrong password and does not reveal which accounts exist.
 */
export async function burnVerification(password: string): Promise<void> {
  dummy ??= hashPassword(randomBytes(12).toString('base64url'));
  await verifyPassword(password, await dummy);
}
