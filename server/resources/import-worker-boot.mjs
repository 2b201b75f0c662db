// The import reader's worker entry: plain JavaScript that registers tsx's loader in this
// thread (on Node 20 a loader of the main thread does not reach its workers), then the worker.
import { register } from 'tsx/esm/api';

register();
await import('./import-worker.ts');
