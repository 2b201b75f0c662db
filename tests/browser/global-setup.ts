import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { build } from 'vite';
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
 * Once for the browser project: build the console (vite build, into a temporary folder so
 * that a developer's dist/ is left alone) and make the seeded database image, which every
 * test file's own server clones (file-server.ts). BROWSER_BASE_URL points the tests at a
 * server that is already running instead.
 */
export default async function setup(project: TestProject) {
  if (process.env.BROWSER_BASE_URL) {
    project.provide('baseUrl', process.env.BROWSER_BASE_URL.replace(/\/$/, ''));
    project.provide('smsMailbox', loadConfig().smsMailbox);
    project.provide('distDir', '');
    return;
  }
  const root = resolve(import.meta.dirname, '../..');
  const dir = mkdtempSync(join(tmpdir(), 'farm-browser-dist-'));
  const distDir = join(dir, 'dist');
  // Vitest sets NODE_ENV=test, which Vite would bake into the bundle (React's development
  // build, antd's fixed test ids): the browser tests must see what `npm start` serves.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, mode: 'production', configFile: join(root, 'vite.config.ts'), logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  // Written to the temporary folder once, so that the files' servers only load it.
  await seededImage();
  project.provide('distDir', distDir);
  project.provide('baseUrl', '');
  project.provide('smsMailbox', '');

  return () => {
    rmSync(dir, { recursive: true, force: true });
  };
}
