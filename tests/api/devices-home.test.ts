/**
 * The devices' parts of the farm home and the field-condition trends (docs/devices.md):
 * open alarms (count, latest) and devices online; readings now per place (the latest soil
 * moisture, air temperature and humidity); seedling, pest and disaster reports per day,
 * week or month over a range. Each in the caller's farm only, behind its screen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { createServer } from 'node:http';
import { call, makeUser } from './resource-fixtures.ts';
import { httpForecast } from '../../server/devices/forecast.ts';

for (const engine of engines()) {
  describe(`farm home devices and field trends on ${engine.name}`, () => {
    let t: TestApp;
    let farm: string;
    let farm2: string;
    let farmId: number;
    let farm2Id: number;
    const orgOf = async (u: string) => (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = $1`, [u])).rows[0].org_id;

    beforeAll(async () => {
      t = await createTestApp(engine);
      farm = await t.login('farm');
      farm2 = await t.login('farm2');
      farmId = await orgOf('farm');
      farm2Id = await orgOf('farm2');
    });
    afterAll(async () => {
      await t?.close();
    });

    it('open device alarms: the count and the latest, of the caller’s farm only', async () => {
      const before = await call(t, farm, 'GET', '/api/farmMain/devices');
      expect(before.status, before.raw.body).toBe(200);
      const open = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_alarms WHERE farm_id = $1 AND cleared_at IS NULL', [farmId])).rows[0].n;
      expect(before.data.openAlarms).toBe(open);
      expect(before.data.devices).toBeGreaterThan(10);
      await t.db.query(`INSERT INTO device_alarms(farm_id, place, kind, message, raised_at) VALUES ($1, '一号日光温室', 'airTemperature', '一号温室高温 38.2 °C', now())`, [farmId]);
      const after = await call(t, farm, 'GET', '/api/farmMain/devices');
      expect(after.data.openAlarms).toBe(open + 1);
      expect(after.data.latestAlarmText).toBe('一号温室高温 38.2 °C');
      expect(after.data.latestAlarm).toMatchObject({ place: '一号日光温室', open: true });
      const other = await call(t, farm2, 'GET', '/api/farmMain/devices');
      expect(other.data.latestAlarmText).not.toBe('一号温室高温 38.2 °C');
    });

    it('readings now: the latest key readings per place, of the caller’s farm only', async () => {
      const device = (await t.db.query<{ id: number }>(`SELECT id FROM devices WHERE farm_id = $1 AND 'soilMoisture' = ANY(channels) LIMIT 1`, [farmId])).rows[0].id;
      await t.db.query(`INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value) VALUES ($1, $2, '测试新地块', 'soilMoisture', now() - interval '1 minute', 21.04), ($1, $2, '测试新地块', 'soilMoisture', now() - interval '2 hours', 40), ($1, $2, '测试新地块', 'airTemperature', now() - interval '3 minutes', 18.26)`, [farmId, device]);
      const r = await call(t, farm, 'GET', '/api/farmMain/readingsNow/page?pageSize=100');
      expect(r.status, r.raw.body).toBe(200);
      const row = r.data.rows.find((x: { place: string }) => x.place === '测试新地块');
      expect(row).toMatchObject({ soilMoisture: 21, airTemperature: 18.3 });
      expect(row.airHumidity).toBeUndefined();
      expect(r.data.rows.length).toBeGreaterThan(1);
      const other = await call(t, farm2, 'GET', '/api/farmMain/readingsNow/page?pageSize=100');
      expect(other.data.rows.some((x: { place: string }) => x.place === '测试新地块')).toBe(false);
      const nobody = await makeUser(t, { orgId: farmId, menus: [], elements: [] });
      expect((await call(t, nobody.token, 'GET', '/api/farmMain/readingsNow/page')).status).toBe(40301);
      expect((await call(t, nobody.token, 'GET', '/api/farmMain/devices')).status).toBe(40301);
    });

    it('field-condition trends: reports per bucket over a range, exactly, behind the report’s screen', async () => {
      const day = (d: Date) => d.toISOString().slice(0, 10);
      const to = day(new Date(Date.now() + 86_400_000));
      const from = day(new Date(Date.now() - 365 * 86_400_000));
      for (const [report, resource] of [['seedling', 'seedlingReports'], ['insect', 'insectReports'], ['disaster', 'disasterReports']]) {
        const r = await call(t, farm, 'GET', `/api/devices/fieldReports/trend?report=${report}&from=${from}&to=${to}`);
        expect(r.status, r.raw.body).toBe(200);
        expect(r.data.bucket).toBe('week');
        const n = (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = $1 AND farm_id = $2 AND data->>'observedOn' BETWEEN $3 AND $4`, [resource, farmId, from, to])).rows[0].n;
        expect(n).toBeGreaterThan(0);
        expect(r.data.points.reduce((s: number, p: { reports: number }) => s + p.reports, 0)).toBe(n);
      }
      // Exact over a short range: two reports of one day, grades 1 and 3, heights 10 and 20.
      const rec = (grade: number, heightCm: number) => JSON.stringify({ place: '试验田', observedOn: '2020-05-03', crop: '玉米', stage: '出苗', heightCm, densityPerMu: 4000, grade, observer: '张伟' });
      await t.db.query(`INSERT INTO resource_records(resource, farm_id, data) VALUES ('seedlingReports', $1, $2), ('seedlingReports', $1, $3), ('seedlingReports', $4, $2)`, [farmId, rec(1, 10), rec(3, 20), farm2Id]);
      const short = await call(t, farm, 'GET', '/api/devices/fieldReports/trend?report=seedling&from=2020-05-01&to=2020-05-10');
      expect(short.data.bucket).toBe('day');
      expect(short.data.points).toEqual([{ t: '2020-05-03', reports: 2, avgGrade: 2, maxGrade: 3, measure: 15 }]);
      const bad = await call(t, farm, 'GET', '/api/devices/fieldReports/trend?report=seedling&from=2020-05-10&to=2020-05-01', undefined, 'en');
      expect(bad.status).toBe(40001);
      expect(bad.message).toContain('end must be after');
      const soilOnly = await makeUser(t, { orgId: farmId, menus: ['shangSituation'], elements: [] });
      expect((await call(t, soilOnly.token, 'GET', '/api/devices/fieldReports/trend?report=insect&from=2020-05-01&to=2020-05-10')).status).toBe(40301);
    });

    it('weather forecast: the default says none is configured; FORECAST_URL’s provider answers, or is said to be unreachable', async () => {
      const w = await call(t, farm, 'GET', '/api/devices/weather');
      expect(w.status, w.raw.body).toBe(200);
      expect(w.data.forecast).toMatchObject({ configured: false, days: [] });
      expect(w.data.forecast.message).toContain('未配置天气预报服务');
      const asked: string[] = [];
      const server = createServer((req, res) => {
        asked.push(req.url ?? '');
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ provider: '测试气象台', days: [{ date: '2026-11-27', summary: '晴', low: -12, high: -3, rainfallMm: 0 }] }));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const port = (server.address() as { port: number }).port;
      try {
        const provider = httpForecast(`http://127.0.0.1:${port}/forecast`, async () => ({ lng: 124.1, lat: 47.3 }));
        const f = await provider.forecast(farmId, 'zh');
        expect(f).toMatchObject({ configured: true, provider: '测试气象台', days: [{ date: '2026-11-27', summary: '晴', low: -12, high: -3, rainfallMm: 0 }] });
        expect(asked[0]).toContain(`farmId=${farmId}`);
        expect(asked[0]).toContain('lat=47.3');
      } finally {
        await new Promise<void>((r) => server.close(() => r()));
      }
      const down = await httpForecast(`http://127.0.0.1:${port}/forecast`, async () => null, 1000).forecast(farmId, 'en');
      expect(down).toMatchObject({ configured: true, days: [] });
      expect(down.message).toContain('cannot be reached');
    });
  });
}
