/** Builds the map harness page (production, like the console) into a temporary folder and serves it on a free local port. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { build } from 'vite';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

export async function serveMapPage(): Promise<{ url: string; close(): Promise<void> }> {
  const root = resolve(import.meta.dirname);
  const out = mkdtempSync(join(tmpdir(), 'map-page-'));
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ root, configFile: false, mode: 'production', logLevel: 'warn', build: { outDir: out, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const server = createServer((req, res) => {
    const path = join(out, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = path.startsWith(out) && existsSync(path) && extname(path) ? path : join(out, 'index.html');
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: async () => {
      await new Promise<void>((r) => server.close(() => r()));
      rmSync(out, { recursive: true, force: true });
    },
  };
}
