/**
 * Demo photos (issue 27 item 5): the drawn pictures of fixtures/seed/ on the pest and
 * seedling reports of every demo farm, and a map point on each pest report (the centre of the
 * plot or house it names), so a newcomer opening 虫情 or 苗情 sees thumbnails, enlarges
 * them, and finds the report's place. The rows point at `seed/<n>/<picture>` keys, which
 * the files module reads from fixtures/seed/ (seed-files.ts) rather than from the storage:
 * the seed needs no storage, and works the same with an object store.
 */
import { readFileSync } from 'node:fs';
import type { Queryable } from '../db/database.ts';
import { SEED_DIR } from './seed-files.ts';

const PEST_PHOTOS: Record<string, string[]> = {
  玉米螟: ['pest-corn-borer.jpg', 'pest-yellow-trap.jpg'],
  大豆蚜: ['pest-soy-aphid.jpg'],
  蚜虫: ['pest-soy-aphid.jpg'],
  白粉虱: ['pest-whitefly.png', 'pest-yellow-trap.jpg'],
};
const SEEDLING_PHOTOS: Record<string, string> = { 玉米: 'seedling-corn.jpg', 大豆: 'seedling-soy.jpg' };

type Shape = { type: string; coordinates: number[][][] };

/** The centre of a plot's or house's outer ring, or null. */
function centreOf(text: string | null): [number, number] | null {
  if (!text) return null;
  try {
    const g = JSON.parse(text) as Shape;
    if (g.type !== 'Polygon') return null;
    const ring = g.coordinates[0].slice(0, -1);
    const lon = ring.reduce((s, p) => s + p[0], 0) / ring.length;
    const lat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    return [Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
  } catch {
    return null;
  }
}

export async function seedFiles(tx: Queryable): Promise<void> {
  const sizes = new Map<string, number>();
  const sizeOf = (name: string) => {
    if (!sizes.has(name)) sizes.set(name, readFileSync(`${SEED_DIR}/${name}`).length);
    return sizes.get(name)!;
  };
  let n = 0;
  const attach = async (resource: string, recordId: number, by: number | null, name: string): Promise<number> => {
    n += 1;
    const key = `seed/${n}/${name}`;
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO files(name, mime, size, width, height, sha256, storage_key, thumb_key, uploaded_by, resource, field, record_id, attached_at)
       VALUES ($1, $2, $3, 480, 360, 'seed', $4, $5, $6, $7, 'photos', $8, now()) RETURNING id`,
      [name, name.endsWith('.png') ? 'image/png' : 'image/jpeg', sizeOf(name), key, `${key}.thumb.jpg`, by, resource, recordId],
    );
    return Number(rows[0].id);
  };

  const reports = await tx.query<{ id: number; resource: string; farm_id: number; created_by: number | null; data: Record<string, unknown> }>(
    `SELECT id, resource, farm_id, created_by, data FROM resource_records
      WHERE resource IN ('insectReports', 'seedlingReports') ORDER BY farm_id, resource, id`,
  );
  const shapes = await tx.query<{ farm_id: number; name: string; shape: string | null }>(
    `SELECT farm_id, data->>'name' AS name, data->>'geometry' AS shape FROM resource_records
      WHERE resource IN ('farmFields', 'greenhouses') AND data ? 'geometry' ORDER BY id`,
  );
  const centre = (farmId: number, place: unknown) => centreOf(shapes.rows.find((s) => s.farm_id === farmId && s.name === place)?.shape ?? null);

  for (const r of reports.rows) {
    const data = r.data;
    const photos: number[] = [];
    if (r.resource === 'insectReports') {
      for (const name of PEST_PHOTOS[String(data.pest)] ?? []) photos.push(await attach(r.resource, r.id, r.created_by, name));
      const at = centre(r.farm_id, data.place);
      if (at) data.location = JSON.stringify({ type: 'Point', coordinates: at });
    } else {
      const name = SEEDLING_PHOTOS[String(data.crop)];
      if (name) photos.push(await attach(r.resource, r.id, r.created_by, name));
    }
    if (!photos.length && !data.location) continue;
    if (photos.length) data.photos = photos;
    await tx.query('UPDATE resource_records SET data = $2 WHERE id = $1', [r.id, JSON.stringify(data)]);
  }
}
