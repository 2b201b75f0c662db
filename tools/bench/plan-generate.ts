/**
 * The plan generator (POST /api/farmPlantGroup/plans/generate) with a 300-item template:
 * the real app on the seeded demo database, `farm` logged in, one seasonWork plan template
 * of 300 work items spread over the season of a growing group of that farm; then N previews
 * (items computed and checked, nothing stored) and M stored generations (a plan and its 300
 * items in one transaction), one request at a time, timed around app.inject (the whole
 * Fastify pipeline: auth, validation, rules, SQL; no socket), so the figures are the server's
 * own latency for one generation, not a load test.
 *
 *   npm run bench -- plan-generate
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- plan-generate
 *   BENCH_PREVIEWS=100 BENCH_STORED=30 npm run bench -- plan-generate
 *
 * PostgreSQL runs when BENCH_DATABASE_URL or TEST_DATABASE_URL is set, in a schema of its own
 * dropped at the end (tests/support/engines.ts).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createTestApp, type TestApp } from '../../tests/support/app.ts';
import { engines } from '../../tests/support/engines.ts';

const ITEMS = 300;
const PREVIEWS = Number(process.env.BENCH_PREVIEWS ?? 100);
const STORED = Number(process.env.BENCH_STORED ?? 30);
/** Untimed requests first, so that compiled validators and warm caches are what is measured. */
const WARMUP = 5;
const GENERATE = '/api/farmPlantGroup/plans/generate';

type Body = Record<string, unknown>;

export async function run(): Promise<void> {
  const load = () => loadavg().map((n) => n.toFixed(2)).join(' ');
  const loadAtStart = load();
  // engines() adds PostgreSQL when TEST_DATABASE_URL is set; BENCH_DATABASE_URL names another one.
  if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
  const lines: string[] = [];
  for (const engine of engines()) lines.push(...(await measure(engine.name, () => createTestApp(engine))));
  if (!process.env.TEST_DATABASE_URL) lines.push('postgres  not run (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  console.log(`\nplan generation from a ${ITEMS}-item seasonWork template, one request at a time, app.inject (no socket)`);
  console.log(`load average (1, 5, 15 min): ${loadAtStart} at the start, ${load()} at the end (2 cores, shared)`);
  console.log('engine    kind       n    p50 ms  p99 ms  mean ms');
  for (const line of lines) console.log(line);
}

async function measure(engine: string, open: () => Promise<TestApp>): Promise<string[]> {
  const t0 = performance.now();
  const t = await open();
  try {
    const token = `Bearer ${await t.login('farm')}`;
    const call = async (method: 'GET' | 'POST', url: string, payload?: Body) => {
      const res = await t.app.inject({ method, url, payload, headers: { authorization: token } });
      const body = res.json() as { status: number; data: Body & { rows?: Body[] } };
      if (body.status !== 200) throw new Error(`${method} ${url}: ${res.body.slice(0, 300)}`);
      return body.data;
    };
    const groups = (await call('GET', '/api/farmPlantGroup/groups/page?status=growing&sort=-plantedOn&pageSize=50')).rows ?? [];
    const group = groups.find((g) => g.seasonEnd && String(g.seasonEnd) > String(g.plantedOn));
    if (!group) throw new Error('no growing group with a season in the seed');
    const workTypes = ((await call('GET', '/api/kms/farmWorkTypes/page?pageSize=50')).rows ?? []).map((w) => Number(w.id));
    if (!workTypes.length) throw new Error('no farm work types in the seed');

    // Day 0 is the planting date; every item ends on or before the season's last day.
    const startOn = String(group.plantedOn);
    const span = Math.round((Date.parse(String(group.seasonEnd)) - Date.parse(startOn)) / 86_400_000) + 1;
    const workItems = Array.from({ length: ITEMS }, (_, i) => {
      const days = 1 + (i % 3);
      const startDay = Math.floor((i * Math.max(0, span - days)) / ITEMS);
      return {
        orderNumber: i + 1,
        name: `农事 ${i + 1}`,
        workTypeId: workTypes[i % workTypes.length],
        startDay,
        days,
        ...(i % 3 === 0 ? { materials: [{ name: '复合肥', amountPerMu: 5 + (i % 10), unit: '公斤' }] } : {}),
      };
    });
    const template = await call('POST', '/api/agricultureKnowledge/planTemplates', {
      name: `基准 ${ITEMS} 项模板`,
      kind: 'seasonWork',
      cropId: group.cropId,
      workItems,
    });
    const body = { groupId: group.id, templateId: template.id, startOn, planType: 'seasonWork' };
    const setupSeconds = (performance.now() - t0) / 1000;

    // One check that a generation does what is measured before measuring it.
    const probe = await call('POST', GENERATE, { ...body, preview: true });
    const items = probe.items as Body[];
    if (items.length !== ITEMS || items[ITEMS - 1].endOn! > String(group.seasonEnd)) throw new Error(`unexpected preview: ${JSON.stringify(probe).slice(0, 300)}`);
    console.log(`[${engine}] seeded app and template ready in ${setupSeconds.toFixed(1)} s; group ${group.id}, season ${startOn} … ${group.seasonEnd} (${span} days); timing ${PREVIEWS} previews and ${STORED} stored plans…`);

    const time = async (n: number, payload: Body) => {
      const ms: number[] = [];
      for (let i = 0; i < n; i += 1) {
        const start = performance.now();
        await call('POST', GENERATE, payload);
        ms.push(performance.now() - start);
      }
      return ms;
    };
    await time(WARMUP, { ...body, preview: true });
    const previews = await time(PREVIEWS, { ...body, preview: true });
    const before = await countItems(t);
    const stored = await time(STORED, { ...body, name: '基准计划' });
    const added = (await countItems(t)) - before;
    if (added !== STORED * ITEMS) throw new Error(`stored generations added ${added} plan items, expected ${STORED * ITEMS}`);
    return [row(engine, 'preview', previews), row(engine, 'stored', stored)];
  } finally {
    await t.close();
  }
}

async function countItems(t: TestApp): Promise<number> {
  const r = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM resource_records WHERE resource = 'planItems'`);
  return Number(r.rows[0].n);
}

function row(engine: string, kind: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
  const mean = ms.reduce((s, x) => s + x, 0) / ms.length;
  return [engine.padEnd(9), kind.padEnd(8), String(ms.length).padStart(4), pct(50).toFixed(1).padStart(9), pct(99).toFixed(1).padStart(7), mean.toFixed(1).padStart(8)].join(' ');
}
