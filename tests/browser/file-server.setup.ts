/** Each browser test file gets a server of its own (file-server.ts), unless BROWSER_BASE_URL names one. */
import { afterAll, beforeAll, inject } from 'vitest';
import { startFileServer } from './file-server.ts';

let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  if (!process.env.BROWSER_BASE_URL) stop = await startFileServer(inject('distDir'));
});
afterAll(async () => {
  await stop?.();
});
