/**
 * Prints, after the run, the ten slowest test files with their times and the run's wall
 * time: the README keeps these figures (issue 28), and a file that grows shows here first.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/** Every file's time, slowest first, for balancing and splitting files (not tracked by git). */
const TIMES_FILE = 'node_modules/.cache/farm-test-times.json';

export default class SlowestFilesReporter implements Reporter {
  private started = performance.now();

  onTestRunStart(): void {
    this.started = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const all = testModules
      .map((m) => ({ file: `${m.project.name}  ${m.relativeModuleId}`, ms: m.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    mkdirSync('node_modules/.cache', { recursive: true });
    writeFileSync(TIMES_FILE, `${JSON.stringify(all, null, 1)}\n`);
    const files = all.slice(0, 10);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    const lines = files.map((f) => `  ${s(f.ms).padStart(8)}  ${f.file}`);
    console.log(`\nSlowest test files:\n${lines.join('\n')}\nvitest wall time: ${s(performance.now() - this.started)} (${testModules.length} files)\n`);
  }
}
