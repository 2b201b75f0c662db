/**
 * Raw readings as a file (issue 26 item 7; server/devices/raw-export.ts), on every engine:
 * every stored value of the range in time order, across query batches and with a reading
 * stored twice at a batch's edge; only the caller's farms; CSV and XLSX; the range and row
 * limits refused with a sentence on the field before anything is read; no authority, 40301.
 */
import readXlsxFile from 'read-excel-file/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines } from '../support/engines.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { RAW_MAX_ROWS } from '../../server/devices/raw-export.ts';

const FROM = '2025-03-01T00:00:00.000Z';
const TO = '2025-03-02T00:00:00.000Z';
/** More than one query batch (5,000 rows) of one device, one reading a second. */
const ROWS = 12_000;

describe.each(engines())('raw readings export on $name', (engine) => {
  let t: TestApp;
  let farm: string;
  let farm2: string;
  let device: { id: number; farm_id: number; unit: string; code: string };

  const get = async (token: string, query: Record<string, string>, lang = 'zh') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/devices/readings/raw?${new URLSearchParams(query)}`, headers: { authorization: token, 'accept-language': lang } });
    return res;
  };

  beforeAll(async () => {
    t = await createTestApp(engine);
    farm = await t.login('farm');
    farm2 = await t.login('farm2');
    const found = await t.db.query<{ id: number; farm_id: number; unit: string; code: string }>(
      `SELECT d.id, d.farm_id, coalesce(nullif(d.unit, ''), d.place) AS unit, d.code FROM devices d JOIN users u ON u.org_id = d.farm_id
        WHERE u.username = 'farm' AND 'airTemperature' = ANY(d.channels) ORDER BY d.id LIMIT 1`,
    );
    device = found.rows[0];
    // One reading a second from FROM; the one at second 4,999 stored twice (a redelivered message), at the first batch's edge.
    await t.db.query(
      `INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value)
       SELECT $1, $2, $3, 'airTemperature', $4::timestamptz + make_interval(secs => i), 20 + (i % 100) / 10.0 FROM generate_series(0, $5 - 1) AS i`,
      [device.farm_id, device.id, device.unit, FROM, ROWS],
    );
    await t.db.query(`INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value) VALUES ($1, $2, $3, 'airTemperature', $4::timestamptz + interval '4999 seconds', 99.9)`, [device.farm_id, device.id, device.unit, FROM]);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives every stored reading of the range once, in time order, across batches, with the header in the caller’s language', async () => {
    const res = await get(farm, { kind: 'airTemperature', places: `${device.farm_id}:${device.unit}`, from: FROM, to: TO });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="readings-airTemperature-2025-03-01-2025-03-02.csv"');
    const lines = res.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('时间,农场,位置,设备编号,设备名称,指标,数值,单位,模拟数据');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows).toHaveLength(ROWS + 1);
    const times = rows.map((r) => r[0]);
    expect([...times].sort()).toEqual(times);
    expect(new Set(times).size).toBe(ROWS);
    expect(rows.filter((r) => r[0] === '2025-03-01T01:23:19.000Z').map((r) => r[6]).sort()).toEqual(['29.9', '99.9']);
    expect(rows[0]).toEqual(['2025-03-01T00:00:00.000Z', expect.any(String), device.unit, device.code, expect.any(String), 'airTemperature', '20', '°C', expect.any(String)]);
  });

  it('shows another farm nothing of this one, and English headers in English', async () => {
    const res = await get(farm2, { kind: 'airTemperature', from: FROM, to: TO }, 'en');
    expect(res.statusCode).toBe(200);
    expect(res.body.replace(/^\uFEFF/, '').trim().split('\r\n')).toEqual(['Time,Farm,Place,Device code,Device name,Reading,Value,Unit,Simulated']);
  });

  it('gives the same rows as XLSX', async () => {
    const res = await get(farm, { kind: 'airTemperature', from: FROM, to: '2025-03-01T00:10:00.000Z', format: 'xlsx' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const [{ data: sheet }] = await readXlsxFile(res.rawPayload);
    expect(sheet).toHaveLength(601);
    expect(sheet[1][0]).toBe('2025-03-01T00:00:00.000Z');
    expect(sheet[1][6]).toBe(20);
  });

  it('refuses a range over a year and a file over its row limit, on the field, before reading, in the caller’s language', async () => {
    const long = await get(farm, { from: '2024-01-01T00:00:00Z', to: '2025-03-01T00:00:00Z' }, 'es');
    expect(long.json()).toMatchObject({ status: 40001, data: { errors: [{ field: 'from', message: expect.stringContaining('366 días') }] } });
    await t.db.query(
      `INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value)
       SELECT $1, $2, $3, 'airHumidity', $4::timestamptz + make_interval(secs => i / 2.0), 50 FROM generate_series(0, $5) AS i`,
      [device.farm_id, device.id, device.unit, FROM, RAW_MAX_ROWS.xlsx],
    );
    const many = await get(farm, { kind: 'airHumidity', from: FROM, to: TO, format: 'xlsx' });
    expect(many.json()).toMatchObject({ status: 40001, data: { errors: [{ field: 'to', message: expect.stringContaining('XLSX') }] } });
    const order = await get(farm, { from: TO, to: FROM });
    expect(order.json()).toMatchObject({ status: 40001, data: { errors: [{ field: 'to' }] } });
  });

  it('refuses an account without a device screen (40301)', async () => {
    const res = await get(await t.login('factory'), { from: FROM, to: TO });
    expect(res.json().status).toBe(40301);
  });
});
