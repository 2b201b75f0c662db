/**
 * The demo photos' bytes (server/files/seed.ts): a storage key `seed/<n>/<picture>` reads
 * fixtures/seed/<picture>, and `….thumb.jpg` its thumbnail, made once and kept in memory.
 * Read-only: the sweeper never removes them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { imageFacts } from './images.ts';

export const SEED_DIR = fileURLToPath(new URL('../../fixtures/seed', import.meta.url));

const thumbnails = new Map<string, Promise<Buffer | null>>();

export const isSeedKey = (key: string) => key.startsWith('seed/');

export async function readSeedFile(key: string): Promise<Buffer | null> {
  const m = /^seed\/\d+\/([a-z0-9-]+\.(?:jpg|png))(\.thumb\.jpg)?$/.exec(key);
  if (!m) return null;
  const picture = m[1];
  const original = () => readFile(`${SEED_DIR}/${picture}`).catch(() => null);
  if (!m[2]) return original();
  let thumb = thumbnails.get(picture);
  if (!thumb) {
    thumb = original().then(async (data) => (data ? ((await imageFacts(data))?.thumbnail ?? null) : null));
    thumbnails.set(picture, thumb);
  }
  return thumb;
}
