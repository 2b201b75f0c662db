/**
 * `npm run walks:baseline`: records the screen documents a full browser walk has just
 * passed with (tests/browser/walk-baseline.json, file → hash of its text), so that
 * `npm test` walks only one document of each kind and what changed since
 * (tests/browser/walk-scope.ts). `npm run test:full` runs it after a full, passing suite.
 */
import { writeFileSync } from 'node:fs';
import { BASELINE_FILE, screenFiles } from '../tests/browser/walk-scope.ts';

const recorded = Object.fromEntries(screenFiles().map(({ doc, hash }) => [doc.file, hash]));
writeFileSync(BASELINE_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
console.log(`walks:baseline: ${Object.keys(recorded).length} screen documents recorded in ${BASELINE_FILE}`);
