import type { TestProject } from 'vitest/node';
import { cachedConsoleBuild } from '../../tools/console-build.ts';
import { loadConfig } from '../../server/config.ts';
import { seededImage } from '../support/engines.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The console built for the tests (each file's server serves it, file-server.ts). */
    distDir: string;
    /** Origin of a console already running (BROWSER_BASE_URL), e.g. http://127.0.0.1:40123. */
    baseUrl: string;
    /** The development SMS mailbox of that server (codes sent are appended there). */
    smsMailbox: string;
  }
}

/**
 * Once for the browser project: the console's production build (kept apart from a
 * developer's dist/) and the seeded database image, which every test file's own server
 * clones (file-server.ts). BROWSER_BASE_URL points the tests at a
 * server that is already running instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.BROWSER_BASE_URL) {
    project.provide('baseUrl', process.env.BROWSER_BASE_URL.replace(/\/$/, ''));
    project.provide('smsMailbox', loadConfig().smsMailbox);
    project.provide('distDir', '');
    return;
  }
  // The production build `npm run bundle:budget` made of these sources, or one made now
  // (tools/console-build.ts): NODE_ENV=production, what `npm start` serves.
  const distDir = await cachedConsoleBuild();
  // Written to the temporary folder once, so that the files' servers only load it.
  await seededImage();
  project.provide('distDir', distDir);
  project.provide('baseUrl', '');
  project.provide('smsMailbox', '');
}
