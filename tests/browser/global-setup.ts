import type { TestProject } from 'vitest/node';
import { cachedConsoleBuild } from '../../tools/console-build.ts';
import { loadConfig } from '../../server/config.ts';
import { seededImage } from '../support/engines.ts';
import { serveSeededConsole } from './file-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console built for the tests (each file's server serves it, file-server.ts). */
    distDir: string;
    /** Origin of a console already running (BROWSER_BASE_URL), e.g. http://127.0.0.1:40123. */
    baseUrl: string;
    /** The development SMS mailbox of that server (codes sent are appended there). */
    smsMailbox: string;
    /** The server the files that change nothing share (file-server.ts, readsOnly()). */
    sharedServer: { baseUrl: string; smsMailbox: string } | null;
  }
}

/**
 * Once for the browser project: the console's production build (kept apart from a
 * developer's dist/) and the seeded database image, which every test file's own server
 * clones (file-server.ts), and the one server that the files changing nothing share.
 * BROWSER_BASE_URL points the tests at a
 * server that is already running instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.BROWSER_BASE_URL) {
    project.provide('baseUrl', process.env.BROWSER_BASE_URL.replace(/\/$/, ''));
    project.provide('smsMailbox', loadConfig().smsMailbox);
    project.provide('distDir', '');
    project.provide('sharedServer', null);
    return;
  }
  // The production build `npm run bundle:budget` made of these sources, or one made now
  // (tools/console-build.ts): NODE_ENV=production, what `npm start` serves.
  const distDir = await cachedConsoleBuild();
  // Written to the temporary folder once, so that the files' servers only load it.
  await seededImage();
  const shared = await serveSeededConsole(distDir);
  project.provide('distDir', distDir);
  project.provide('baseUrl', '');
  project.provide('smsMailbox', '');
  project.provide('sharedServer', shared.server);
  return () => shared.stop();
}
