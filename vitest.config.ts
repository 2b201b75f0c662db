import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The default report, then the ten slowest files and the wall time (the README keeps them).
    reporters: ['default', './tests/support/slowest-files-reporter.ts'],
    // Two files at a time on the 2-core machine: a file waits on PostgreSQL, Chromium or a
    // timer often enough that two workers finish the API files 1.5 times sooner than one.
    maxWorkers: 2,
    // In every project, a worker runs its files in one module graph: the server, PGlite and
    // ajv load once per worker instead of once per file (an API file's import went from
    // about 4 s to 0.3 s). Files share no state through it: each builds its own app and
    // database, and the browser setup forgets its file's server after the file
    // (tests/browser/file-server.setup.ts).
    projects: [
      {
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'], environment: 'node', isolate: false },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          // The seeded image and template built once, before the files (not by both workers at once).
          globalSetup: ['tests/api/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          globalSetup: ['tests/browser/global-setup.ts'],
          // Each file has a server of its own (tests/browser/file-server.ts): no file sees what
          // another changed, and browser files take their turn among the API files rather than
          // in a queue after them.
          setupFiles: ['tests/browser/file-server.setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // What the console shows after a click can take seconds on a loaded 2-core machine
          // (the API files run beside); a poll still fails as soon as its time is up.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
