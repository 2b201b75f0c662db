// The render worker's entry: plain JavaScript that registers tsx's loader in this thread
// (on Node 20 a loader of the main thread does not reach its workers), then the
// resolution of the console's bundler (resolve-hooks.mjs), then the worker.
import { register as registerTsx } from 'tsx/esm/api';
import { register } from 'node:module';

registerTsx();
// Registered last, runs first: it asks tsx's resolution, then prefers a package's ES entry.
register('./resolve-hooks.mjs', import.meta.url);
await import('./worker.ts');
