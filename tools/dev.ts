/**
 * `npm run dev`: the API server (tsx server/main.ts, on PORT, 8080 by default) and the
 * Vite dev server (proxying /api to it) together. Ctrl-C or a signal stops both; if
 * either exits, the other is stopped too and its exit code is passed on.
 */
import { spawn, type ChildProcess } from 'node:child_process';

const apiPort = process.env.PORT ?? '8080';
const bin = (name: string) => `node_modules/.bin/${name}`;

const children: ChildProcess[] = [
  start('api', bin('tsx'), ['server/main.ts'], { PORT: apiPort }),
  start('vite', bin('vite'), [], { API_URL: process.env.API_URL ?? `http://localhost:${apiPort}` }),
];

let stopping = false;
function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  // A child that ignores SIGTERM must not keep the terminal hostage.
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, 5000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => stopAll(0));
}

function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[dev] ${name} exited (${signal ?? code}); stopping the other process`);
      stopAll(code ?? 1);
    }
  });
  child.on('error', (err) => {
    console.error(`[dev] could not start ${name}:`, err);
    stopAll(1);
  });
  return child;
}
