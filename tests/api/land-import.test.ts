/**
 * Land import and export (issue 30 item 1, docs/land-and-maps.md "Import and export") on
 * every engine: the sample survey (tests/fixtures/land) in GeoJSON, KML, KMZ and a zipped
 * Shapefile in CGCS2000 Gauss-Krüger previews the same plan and the same areas; nothing is
 * written before the confirm, which writes it and logs it; each refusal of a feature has its
 * sentence; a plot outside the farm's boundary is refused in a file and in the form; limits
 * are refused before the file is parsed (a feature count in a file that is not even valid
 * JSON, a zip bomb); export → import gives the same shapes and areas.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { deflatedRepeat, zipOf } from '../support/zip-build.ts';
import { call, fingerprint, type Body } from './resource-fixtures.ts';
import { GK_CM126_WKT, SAMPLE, sampleKml, sampleShapefileZip } from '../fixtures/land/generate.ts';
import { grid, ring } from '../../server/land/seed.ts';

const FIXTURES = new URL('../fixtures/land/', import.meta.url);
const b64 = (b: Buffer | string) => Buffer.from(b).toString('base64');
const file = (name: string) => readFileSync(new URL(name, FIXTURES));
const IMPORT = '/api/land/import';

type Feature = { index: number; layer: string; name: string; code: string | null; action: string; reason?: string; areaMu?: number; id?: number; geometry?: { type: string; coordinates: unknown } };

describe.each(engines())('land import and export on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  const post = (body: Body, who = farm) => call(t, who, 'POST', IMPORT, body);
  const preview = async (content: Buffer | string, extra: Body = {}) => {
    const r = await post({ mode: 'preview', content: b64(content), ...extra });
    expect(r.status, r.raw.body).toBe(200);
    return r.data as { counts: Record<string, number>; features: Feature[]; warnings: string[]; format: string };
  };
  const landOf = async () => {
    const { data } = await call(t, farm, 'GET', '/api/land/map');
    return data.features.features as { geometry: unknown; properties: Body }[];
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = `Bearer ${await t.login('farm')}`;
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it('previews each format to the same plan and areas, writing nothing', async () => {
    const before = await fingerprint(t.db);
    const geojson = await preview(file('survey.geojson'));
    expect(geojson.format).toBe('geojson');
    expect(geojson.counts).toEqual({ create: 4, update: 1, refused: 0, total: 5 });
    expect(geojson.features.map((f) => [f.layer, f.name, f.action])).toEqual([
      ['boundary', '禾丰生态农场场界（北扩）', 'update'],
      ['plots', '北扩一号地', 'create'],
      ['plots', '北扩二号地', 'create'],
      ['plots', '北扩三号地', 'create'],
      ['facilities', '北扩机井', 'create'],
    ]);
    const kml = await preview(file('survey.kml'));
    const kmz = await preview(zipOf([{ name: 'doc.kml', data: sampleKml() }]));
    const shp = await preview(file('survey-shp.zip'));
    expect([kml.format, kmz.format, shp.format]).toEqual(['kml', 'kmz', 'shapefile']);
    expect(kml.features).toEqual(geojson.features);
    expect(kmz.features).toEqual(geojson.features);
    // The Shapefile holds the polygons, reprojected from Gauss-Krüger: the same areas within 0.01 %.
    expect(shp.counts).toEqual({ create: 3, update: 1, refused: 0, total: 4 });
    for (const f of shp.features) {
      const same = geojson.features.find((g) => g.name === f.name)!;
      expect(f.action).toBe(same.action);
      expect(Math.abs(f.areaMu! - same.areaMu!) / same.areaMu!).toBeLessThan(1e-4);
    }
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('writes on confirm, once, with its operation-log row; the same file again updates', async () => {
    const r = await post({ mode: 'confirm', content: b64(file('survey.geojson')), fileName: 'survey.geojson' });
    expect(r.status, r.raw.body).toBe(200);
    expect(r.data.counts).toEqual({ create: 4, update: 1, refused: 0, total: 5 });
    const land = await landOf();
    for (const s of SAMPLE) {
      const stored = land.find((f) => f.properties.name === s.name && f.properties.layer === s.layer)!;
      expect(stored, s.name).toBeDefined();
      expect(stored.geometry).toEqual(s.geometry);
    }
    const plots = r.data.features.filter((f: Feature) => f.layer === 'plots');
    for (const p of plots) expect(land.find((f) => f.properties.id === p.id)!.properties.areaMu).toBe(p.areaMu);
    const log = await t.db.query<{ changes: Body }>(`SELECT changes FROM operation_log WHERE action = 'land.import' ORDER BY id DESC LIMIT 1`);
    expect(log.rows[0].changes).toMatchObject({ fileName: 'survey.geojson', format: 'geojson', refused: 0 });
    expect((log.rows[0].changes.created as unknown[]).length).toBe(4);
    // KML of the same survey: every feature matched (by code, the boundary by being the farm's one).
    const again = await preview(file('survey.kml'));
    expect(again.counts).toEqual({ create: 0, update: 5, refused: 0, total: 5 });
  });

  it('refuses each bad feature with its sentence, and writes the good ones only', async () => {
    const at = grid([126.302, 45.372], 8);
    const land = await landOf();
    const seededPlot = land.find((f) => f.properties.layer === 'plots' && f.properties.code !== 'BK-01')!;
    const feature = (properties: Body, geometry: unknown) => ({ type: 'Feature', properties, geometry });
    const box = (x: number, y: number, w = 100, h = 100) => ring([at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)]);
    const collection = {
      type: 'FeatureCollection',
      features: [
        feature({ name: '蝴蝶地', code: 'X-1' }, { type: 'Polygon', coordinates: [[at(0, 2000), at(100, 2100), at(100, 2000), at(0, 2100), at(0, 2000)]] }),
        feature({ name: '压线地', code: 'X-2' }, seededPlot.geometry),
        feature({ name: '场外地', code: 'X-3' }, box(8000, 500)),
        feature({ name: '线状地', code: 'X-4' }, { type: 'LineString', coordinates: [at(0, 2300), at(300, 2300)] }),
        feature({ code: 'X-5' }, box(500, 2300)),
        feature({ name: '两块地', code: 'X-6' }, { type: 'MultiPolygon', coordinates: [box(0, 2600).coordinates, box(300, 2600).coordinates] }),
        feature({ name: '好地', code: 'X-7' }, box(600, 2600)),
        feature({ name: '好地', code: 'X-7' }, box(800, 2600)),
        feature({ name: '怪层', layer: 'orchards' }, box(1000, 2600)),
      ],
    };
    const before = await fingerprint(t.db);
    const plan = await preview(JSON.stringify(collection));
    expect(await fingerprint(t.db)).toBe(before);
    const reasons = Object.fromEntries(plan.features.map((f) => [f.index, f.reason ?? f.action]));
    expect(reasons[1]).toBe('「蝴蝶地」的图形的边线自相交，请调整顶点使边界不交叉');
    expect(reasons[2]).toMatch(/^「压线地」与「.+」重叠了 100%，最多允许 1%$/);
    expect(reasons[3]).toMatch(/^「场外地」有 100% 在农场边界之外，最多允许 1%$/);
    expect(reasons[4]).toBe('「线状地」是 LineString，地块只能是 Polygon');
    expect(reasons[5]).toBe('第 5 个要素没有名称');
    expect(reasons[6]).toBe('「两块地」由 2 个互不相连的部分组成，请拆分为单独的要素');
    expect(reasons[7]).toBe('create');
    expect(reasons[8]).toBe('文件中已有名为「好地」的地块（第 7 个要素）');
    expect(reasons[9]).toBe('「怪层」的图层「orchards」无法识别（可用：场界、地块、温室群、温室、设施）');
    // Refused features keep their shape for the map.
    expect(plan.features[2].geometry?.type).toBe('Polygon');
    // In English too.
    const en = await call(t, farm, 'POST', IMPORT, { mode: 'preview', content: b64(JSON.stringify(collection)) }, 'en');
    expect(en.data.features[4].reason).toBe('Feature 5 has no name');
    const done = await post({ mode: 'confirm', content: b64(JSON.stringify(collection)) });
    expect(done.data.counts).toEqual({ create: 1, update: 0, refused: 8, total: 9 });
    expect((await landOf()).filter((f) => f.properties.name === '好地')).toHaveLength(1);
  });

  it('refuses a plot outside the boundary in the form too', async () => {
    const at = grid([126.302, 45.372], 8);
    const before = await fingerprint(t.db);
    const r = await call(t, farm, 'POST', '/api/admin/fields', {
      code: 'OUT-1', name: '八公里外', landType: 'dryland', status: 1,
      geometry: JSON.stringify(ring([at(8000, 0), at(8200, 0), at(8200, 200), at(8000, 200)])),
    });
    expect(r.status, r.raw.body).toBe(40001);
    expect(r.data.errors).toEqual([{ field: 'geometry', message: '地块图形有 100% 在农场边界之外，最多允许 1%' }]);
    expect(await fingerprint(t.db)).toBe(before);
  });

  it('refuses files past a limit before parsing them, and unknown projections with a sentence', async () => {
    const refusal = async (content: Buffer | string) => {
      const r = await post({ mode: 'preview', content: b64(content) });
      expect(r.status, `${r.http} ${r.raw.body.slice(0, 300)}`).toBe(40001);
      return r.data.errors[0].message as string;
    };
    // 2,001 features counted in the text: the file is not even valid JSON (its end is cut), yet the count is what is refused.
    const many = `{"type":"FeatureCollection","features":[${Array.from({ length: 2001 }, () => '{"type":"Feature","properties":{},"geometry":null}').join(',')}`;
    expect(await refusal(many)).toBe('文件有 2001 个要素，一次最多导入 2000 个');
    expect(await refusal(`{"type":"FeatureCollection","features":[`)).toBe('文件已损坏或格式不完整，无法读取');
    // Over 5 MB: refused on its size.
    expect(await refusal(Buffer.alloc(5 * 1024 * 1024 + 10, 0x20))).toBe('文件过大（上限 5 MB）');
    // A zip bomb (a KMZ inflating to 100 MB): stopped while inflating.
    const bomb = zipOf([{ name: 'doc.kml', deflated: await deflatedRepeat(100, '<kml>') }]);
    expect(bomb.length).toBeLessThan(200_000);
    expect(await refusal(bomb)).toBe('压缩包解压后超过 40 MB 或压缩比异常，可能是恶意文件，已停止读取');
    // A Shapefile in Beijing 1954 (another ellipsoid) and one without .prj.
    const beijing = GK_CM126_WKT.replace('GCS_China_Geodetic_Coordinate_System_2000', 'GCS_Beijing_1954').replace('D_China_2000', 'D_Beijing_1954').replace('SPHEROID["CGCS2000",6378137.0,298.257222101]', 'SPHEROID["Krasovsky_1940",6378245.0,298.3]').replace('CGCS2000_3_Degree_GK_CM_126E', 'Beijing_1954_3_Degree_GK_CM_126E');
    expect(await refusal(sampleShapefileZip(beijing))).toBe('坐标系「Beijing_1954_3_Degree_GK_CM_126E」不受支持：可用 WGS 84 或 CGCS2000 经纬度，或基于它们的投影坐标（如 CGCS2000 高斯-克吕格、UTM）');
    expect(await refusal(sampleShapefileZip(null))).toBe('Shapefile 缺少 .prj 文件，无法确定坐标系：请连同 .prj 一起压缩上传');
    expect(await refusal('hello')).toMatch(/^无法识别的文件/);
    // GeoJSON naming another CRS (2008 style).
    expect(await refusal(JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'EPSG:3857' } }, features: [] }))).toMatch(/^文件的坐标系「EPSG:3857」不受支持/);
  });

  it('exports GeoJSON and KML that import again to the same shapes and areas', async () => {
    const land = await landOf();
    const drawn = land.filter((f) => f.properties.layer !== 'greenhouses' || true);
    for (const format of ['geojson', 'kml']) {
      const r = await call(t, farm, 'GET', `/api/land/export?format=${format}`);
      expect(r.status, r.raw.body).toBe(200);
      expect(r.data.fileName).toMatch(new RegExp(`\\.${format}$`));
      const plan = await preview(r.data.content);
      expect(plan.counts.refused, JSON.stringify(plan.features.filter((f) => f.action === 'refused'))).toBe(0);
      expect(plan.counts.create).toBe(0);
      expect(plan.counts.update).toBe(drawn.length);
      for (const f of plan.features) {
        const stored = land.find((s) => s.properties.id === f.id && s.properties.layer === f.layer)!;
        expect(stored, `${f.layer} ${f.name}`).toBeDefined();
        expect(f.geometry).toEqual(stored.geometry);
        if (f.areaMu !== undefined) expect(f.areaMu).toBe(stored.properties.areaMu);
      }
    }
  });

  it('needs the land-build menu and its add code', async () => {
    const tech = `Bearer ${await t.login('tech')}`;
    const r = await post({ mode: 'preview', content: b64(file('survey.geojson')) }, tech);
    expect(r.status).toBe(40301);
  });
});
