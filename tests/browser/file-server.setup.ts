/**
 * Each browser test file gets a server of its own (file-server.ts), unless BROWSER_BASE_URL
 * names one, or the file declared readsOnly() and takes the project's shared server.
 */
import { afterAll, beforeAll, inject } from 'vitest';
import { forgetFileServer, pointAtServer, startFileServer, wantsSharedServer } from './file-server.ts';

let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  if (process.env.BROWSER_BASE_URL) return;
  const shared = inject('sharedServer');
  if (wantsSharedServer() && shared) pointAtServer(shared);
  else stop = await startFileServer(inject('distDir'));
});
afterAll(async () => {
  await stop?.();
  stop = undefined;
  // Workers may run several files (isolate: false): nothing of this file stays for the next.
  forgetFileServer();
});
