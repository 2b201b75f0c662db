/**
 * `npm run bench [-- name ...]`: runs the named benchmarks (all when none is named),
 * one after another, each printing its own figures. `npm run bench -- --list` lists them.
 * A benchmark is a module exporting `run(): Promise<void>`; add it to BENCHES.
 */
export interface Bench {
  description: string;
  load: () => Promise<{ run(): Promise<void> }>;
}

const BENCHES: Record<string, Bench> = {
  'resource-page': {
    description: 'resource engine: page query over 100,000 records (page size 20, one filter, one sort) under autocannon, PGlite and PostgreSQL',
    load: () => import('./resource-page.ts'),
  },
  serving: {
    description: 'console delivery: first-load bytes and time plain / gzip / brotli, keep-alive, repeat visit with immutable assets against max-age=0',
    load: () => import('./serving.ts'),
  },
  'browser-screens': {
    description: 'screen runtime in headless Chromium: cold tables (10 × 5, 100 × 50, 10,000 × 50), 10,000 × 50 table page, row selection, page change, 200-field form, routes for 1,000 menu entries, registry and validation',
    load: () => import('./browser-screens.ts'),
  },
  timeline: {
    description: 'planting-plan timeline in headless Chromium: first render with 500 items, a mouse drag until saved and painted, pointer move to next frame',
    load: () => import('./timeline.ts'),
  },
  'plan-generate': {
    description: 'plan generator on the server: a 300-item plan from a template, preview (nothing stored) and stored (plan and items in one transaction), p50/p99, PGlite and PostgreSQL',
    load: () => import('./plan-generate.ts'),
  },
  'studio-check': {
    description: 'schema studio: validation of one document as you type (the publish gate, preview registry and line/column per keystroke), p50/p99 in headless Chromium',
    load: () => import('./studio-check.ts'),
  },
  'studio-push': {
    description: 'schema studio: publish → the notice on a console with the screen open (headless Chromium), on the publishing instance and on a second one (database poll), p50 over 10 publishes',
    load: () => import('./studio-push.ts'),
  },
  map: {
    description: 'farm map (OpenLayers, no tiles) in headless Chromium: first render with 2,000 plots (200 as a baseline), frame intervals during a 1 s pan and zoom, time to settle after each',
    load: () => import('./map.ts'),
  },
  devices: {
    description: 'devices over MQTT: ingest rate of readings (messages/s, p99 write latency), a one-year chart over one million readings, the command round trip through the broker (embedded, and Mosquitto when reachable)',
    load: () => import('./devices.ts'),
  },
  stock: {
    description: 'stock ledger: stock-outs of one material by 20 concurrent writers (throughput, p50/p99), the running-balance ledger page of a material with 100,000 movements (first, middle, last), PGlite and PostgreSQL',
    load: () => import('./stock.ts'),
  },
  import: {
    description: 'imports: a 5,000-row catalogue file as CSV and as xlsx (validOnly), rows per second, and p50/p99 of 10 clients reading a page meanwhile, PGlite and PostgreSQL',
    load: () => import('./import.ts'),
  },
  trace: {
    description: 'traceability over five generated seasons of one farm: the lot report (JSON, CSV, XLSX), the material-lot report and the recall of a material lot, p50/p99, PGlite and PostgreSQL',
    load: () => import('./trace.ts'),
  },
  'console-load': {
    description: 'the real console built and served by the real server, cold cache in headless Chromium: JavaScript per route, login form ready, login to a table with rows',
    load: () => import('./console-load.ts'),
  },
};

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const [name, b] of Object.entries(BENCHES)) console.log(`${name.padEnd(20)} ${b.description}`);
  process.exit(0);
}
const unknown = args.filter((a) => !(a in BENCHES));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(BENCHES).join(', ')}`);
  process.exit(2);
}
for (const name of args.length ? args : Object.keys(BENCHES)) {
  console.log(`\n== ${name}: ${BENCHES[name].description}`);
  const started = Date.now();
  await (await BENCHES[name].load()).run();
  console.log(`== ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
