/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) copy next to every text
 * file of the built console, which server/http/static.ts serves to browsers that accept
 * them: the best compression, paid once at build time instead of on every request.
 * A copy that would not be smaller than 90 % of its file is not written.
 *
 *   npx tsx tools/precompress.ts [dist]          # also run by the Vite build (vite.config.ts)
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Text formats worth compressing; images and fonts (woff2) are compressed already. */
const TEXT = /\.(js|mjs|css|html|svg|json|txt|xml|map|wasm|ico)$/;
const MIN_BYTES = 1024;

export interface Precompressed {
  file: string;
  raw: number;
  gzip: number | null;
  br: number | null;
}

export async function precompressDir(dir: string): Promise<Precompressed[]> {
  const files = (await readdir(dir, { recursive: true })).map((f) => join(dir, f)).filter((f) => TEXT.test(f));
  const out: Precompressed[] = [];
  // zlib's async calls run on libuv's thread pool: the files compress in parallel.
  await Promise.all(
    files.map(async (file) => {
      if (!(await stat(file)).isFile()) return;
      const raw = await readFile(file);
      if (raw.length < MIN_BYTES) return out.push({ file, raw: raw.length, gzip: null, br: null });
      const [b, g] = await Promise.all([
        brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
        gz(raw, { level: 9 }),
      ]);
      const keep = (c: Buffer) => c.length < raw.length * 0.9;
      if (keep(b)) await writeFile(`${file}.br`, b);
      if (keep(g)) await writeFile(`${file}.gz`, g);
      out.push({ file, raw: raw.length, gzip: keep(g) ? g.length : null, br: keep(b) ? b.length : null });
    }),
  );
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** The Vite plugin: precompresses the output folder once the bundle is written. */
export function precompressPlugin(): Plugin {
  let outDir = 'dist';
  return {
    name: 'console:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const started = Date.now();
      const files = await precompressDir(outDir);
      const sum = (k: 'raw' | 'br') => files.reduce((n, f) => n + (f[k] ?? f.raw), 0);
      this.info?.(`precompressed ${files.length} files in ${Date.now() - started} ms: ${(sum('raw') / 1024).toFixed(0)} kB → ${(sum('br') / 1024).toFixed(0)} kB brotli`);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'dist';
  const files = await precompressDir(dir);
  for (const f of files) console.log(`${f.file.slice(dir.length + 1).padEnd(60)} ${String(f.raw).padStart(9)} ${String(f.gzip ?? '-').padStart(9)} ${String(f.br ?? '-').padStart(9)}`);
}
