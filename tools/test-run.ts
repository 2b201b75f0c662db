/**
 * `npm test`: every check, in order, each timed; stops at the first that fails and prints
 * how long each step and the whole run took (issue 28: the suite keeps under 15 minutes on
 * the 2-core machine, and says so itself).
 */
import { spawnSync } from 'node:child_process';

const STEPS: [string, string[]][] = [
  ['typecheck', ['run', 'typecheck']],
  ['lint', ['run', 'lint']],
  ['schemas:check', ['run', 'schemas:check']],
  ['bundle:budget', ['run', 'bundle:budget']],
  ['vitest', ['exec', '--', 'vitest', 'run', ...process.argv.slice(2)]],
];

const started = Date.now();
const took: string[] = [];
const fmt = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${(ms / 1000).toFixed(1)} s`);
let failed: string | undefined;
for (const [name, args] of STEPS) {
  const t0 = Date.now();
  const r = spawnSync('npm', args, { stdio: 'inherit' });
  took.push(`  ${name.padEnd(14)} ${fmt(Date.now() - t0)}`);
  if (r.status !== 0) {
    failed = name;
    break;
  }
}
console.log(`\nnpm test ${failed ? `FAILED at ${failed}` : 'passed'} in ${fmt(Date.now() - started)}:\n${took.join('\n')}`);
process.exit(failed ? 1 : 0);
