/**
 * Devices (docs/devices.md, "Benchmark"): the real app on the seeded demo database with the
 * embedded broker (simulator off), a test gateway connected in process:
 *
 * 1. ingest: N reading messages (two values each) published as fast as the gateway can,
 *    until every value is committed: messages per second, and the p50/p99 write latency
 *    (arrival at the server to commit, batched inserts);
 * 2. a one-year chart over one million readings of one place and kind (a value every
 *    31.5 s): the series query by day and by week, median of 5, and the plan;
 * 3. the command round trip through the broker: stored, audited-less send, published, the
 *    gateway acknowledges at once, the acknowledgement stored: p50/p99 of M commands; also
 *    through Mosquitto on 127.0.0.1:1883 when it is reachable.
 *
 *   npm run bench -- devices
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- devices
 *   BENCH_MESSAGES=20000 BENCH_COMMANDS=200 BENCH_READINGS=1000000 npm run bench -- devices
 */
import { connect as netConnect } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { MqttClient, connect } from 'mqtt';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { engines } from '../../tests/support/engines.ts';
import { deviceServiceOf } from '../../server/devices/plugin.ts';
import { readingSeries } from '../../server/devices/reads.ts';
import { ROLLUP_FROM } from '../../server/devices/readings-writer.ts';
import type { SessionUser } from '../../server/auth/session-user.ts';
import type { ServerConfig } from '../../server/config.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const COMMANDS = Number(process.env.BENCH_COMMANDS ?? 200);
const READINGS = Number(process.env.BENCH_READINGS ?? 1_000_000);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function mosquitto(): Promise<boolean> {
  return new Promise((resolve) => {
    const s = netConnect({ host: '127.0.0.1', port: 1883 });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

export async function run(): Promise<void> {
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  console.log(`load average at start: ${load()} (2 cores, shared)`);
  for (const engine of engines()) {
    const t = await createTestApp(engine, { mqttTopicRoot: `bench${process.pid}` });
    try {
      await ingest(engine.name, t);
      await chart(engine.name, t);
      await roundTrip(engine.name, 'embedded broker', t);
    } finally {
      await t.close();
    }
    if (await mosquitto()) {
      const m = await createTestApp(engine, { mqttUrl: 'mqtt://127.0.0.1:1883', mqttTopicRoot: `bench${process.pid}m` } as Partial<ServerConfig>);
      try {
        await roundTrip(engine.name, 'Mosquitto 127.0.0.1:1883', m);
      } finally {
        await m.close();
      }
    } else console.log('command round trip through Mosquitto: not run (127.0.0.1:1883 not reachable)');
  }
  console.log(`load average at end: ${load()}`);
}

async function farmOf(t: TestApp): Promise<number> {
  return (await t.db.query<{ org_id: number }>(`SELECT org_id FROM users WHERE username = 'farm'`)).rows[0].org_id;
}

async function gateway(t: TestApp, farmId: number): Promise<MqttClient> {
  const svc = deviceServiceOf(t.app);
  const secret = (await t.db.query<{ secret: string }>('SELECT secret FROM device_gateways WHERE code = $1', [`F${farmId}-GW2`])).rows[0].secret;
  const opts = { username: `F${farmId}-GW2`, password: secret, reconnectPeriod: 0, clientId: `bench-${Math.random()}` };
  const c = svc.broker
    ? new MqttClient(() => (svc.broker as NonNullable<typeof svc.broker>).connectInProcess(), { ...opts, protocolVersion: 4 })
    : connect(t.config.mqttUrl as string, opts);
  await new Promise<void>((resolve, reject) => (c.once('connect', () => resolve()), c.once('error', reject)));
  return c;
}

async function ingest(engine: string, t: TestApp): Promise<void> {
  const svc = deviceServiceOf(t.app);
  const farmId = await farmOf(t);
  const gw = await gateway(t, farmId);
  const code = `F${farmId}-FLD-SOIL1`;
  const topic = `${t.config.mqttTopicRoot}/${farmId}/device/${code}/reading`;
  const before = svc.hub.writer.written;
  svc.hub.writer.latencies.length = 0;
  const start = performance.now();
  const base = Date.now() - MESSAGES * 1000;
  for (let i = 0; i < MESSAGES; i++) {
    gw.publish(topic, JSON.stringify({ deviceId: code, ts: base + i * 1000, values: { soilMoisture: 30 + (i % 7), soilTemperature: 18 } }), { qos: 0 });
    if (i % 500 === 499) await new Promise((r) => setImmediate(r));
  }
  while (svc.hub.writer.written - before < MESSAGES * 2) {
    await new Promise((r) => setTimeout(r, 20));
    await svc.hub.idle();
  }
  const secs = (performance.now() - start) / 1000;
  const lat = svc.hub.writer.latencies;
  console.log(
    `${engine.padEnd(8)} ingest: ${MESSAGES} messages (${MESSAGES * 2} values) in ${secs.toFixed(2)} s = ${(MESSAGES / secs).toFixed(0)} messages/s; write latency p50 ${pct(lat, 50).toFixed(0)} ms, p99 ${pct(lat, 99).toFixed(0)} ms (batched, at most every 200 ms or 1000 rows)`,
  );
  await gw.endAsync(true);
}

async function chart(engine: string, t: TestApp): Promise<void> {
  const farmId = await farmOf(t);
  const device = (await t.db.query<{ id: number }>(`SELECT id FROM devices WHERE code = $1`, [`F${farmId}-GH1-TH`])).rows[0].id;
  const started = performance.now();
  const step = (365 * 86_400) / READINGS;
  await t.db.query(
    `INSERT INTO device_readings(farm_id, device_id, place, kind, ts, value)
     SELECT $1, $2, '一号日光温室', 'co2', now() - make_interval(secs => g * $3::float8), 400 + (g % 500)
       FROM generate_series(1, $4::int) g`,
    [farmId, device, step, READINGS],
  );
  const inserted = performance.now();
  // The writer keeps the rollup as readings arrive; readings inserted by SQL get it in one go.
  await t.db.query(`${ROLLUP_FROM(`(SELECT farm_id, place, kind, ts, value FROM device_readings WHERE farm_id = $1 AND kind = 'co2') s`)}`, [farmId]);
  await t.db.query('ANALYZE device_readings');
  await t.db.query('ANALYZE device_readings_hourly');
  console.log(
    `${engine.padEnd(8)} chart: ${READINGS.toLocaleString('en')} readings of one place and kind over a year inserted in ${((inserted - started) / 1000).toFixed(1)} s, rolled up by hour in ${((performance.now() - inserted) / 1000).toFixed(1)} s`,
  );
  const user = { platformAdmin: false, orgId: farmId, blocId: null } as SessionUser;
  const to = new Date(Math.ceil(Date.now() / 3_600_000) * 3_600_000);
  const from = new Date(to.getTime() - 365 * 86_400_000);
  for (const bucket of ['hour', 'day', 'week'] as const) {
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < 6; i++) {
      const s = performance.now();
      const r = await readingSeries(t.db, user, { kind: 'co2', places: [{ place: '一号日光温室' }], from, to, bucket });
      if (i > 0) times.push(performance.now() - s);
      points = r.series[0].points.length;
    }
    console.log(`${engine.padEnd(8)} chart: one year by ${bucket} (${points} points): median ${pct(times, 50).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`);
  }
  const plan = await t.db.query<Record<string, string>>(
    `EXPLAIN SELECT date_bin('1 day', hour, TIMESTAMPTZ '2000-01-01 00:00:00+08') t, sum(total) / sum(n) FROM device_readings_hourly
      WHERE farm_id = $1 AND kind = 'co2' AND place = '一号日光温室' AND hour >= $2 AND hour < $3 GROUP BY 1`,
    [farmId, from.toISOString(), to.toISOString()],
  );
  console.log(`${engine.padEnd(8)} chart plan: ${plan.rows.map((r) => Object.values(r)[0].trim()).filter((l) => /Scan|Aggregate/.test(l)).join(' | ')}`);
}

async function roundTrip(engine: string, broker: string, t: TestApp): Promise<void> {
  const svc = deviceServiceOf(t.app);
  const farmId = await farmOf(t);
  const gw = await gateway(t, farmId);
  const code = `F${farmId}-FLD-PUMP`;
  const root = t.config.mqttTopicRoot;
  await gw.subscribeAsync(`${root}/${farmId}/device/${code}/command`, { qos: 1 });
  gw.on('message', (_topic, payload) => {
    const c = JSON.parse(payload.toString()) as { commandId: number; params: { on: boolean } };
    gw.publish(`${root}/${farmId}/device/${code}/ack`, JSON.stringify({ deviceId: code, commandId: c.commandId, ok: true, state: { on: c.params.on } }), { qos: 1 });
  });
  gw.publish(`${root}/${farmId}/device/${code}/status`, JSON.stringify({ deviceId: code, online: true }), { qos: 1 });
  await new Promise((r) => setTimeout(r, 300));
  await svc.hub.idle();
  const device = (await svc.hub.device(code))!;
  const times: number[] = [];
  for (let i = 0; i < COMMANDS + 5; i++) {
    const s = performance.now();
    const done = new Promise<void>((resolve) => {
      const off = svc.hub.events.subscribe(farmId, (e) => {
        if (e.type === 'command' && e.deviceId === device.id && e.status === 'acknowledged') {
          off();
          resolve();
        }
      });
    });
    await svc.commands.send(device, 'switch', { on: i % 2 === 0 }, { userId: null, source: 'user' });
    await done;
    if (i >= 5) times.push(performance.now() - s);
  }
  console.log(`${engine.padEnd(8)} command round trip (${broker}): ${COMMANDS} commands one at a time, stored → published → acknowledged → stored: p50 ${pct(times, 50).toFixed(1)} ms, p99 ${pct(times, 99).toFixed(1)} ms`);
  await gw.endAsync(true);
}
