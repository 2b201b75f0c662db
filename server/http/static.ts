import type { FastifyInstance, FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import { relative, sep } from 'node:path';
import fastifyStatic from '@fastify/static';

/** A year: the longest max-age that caches honour (RFC 9111 suggests no more). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Stored, but checked with the server (ETag → 304) before every use. */
export const REVALIDATE_CACHE = 'no-cache';

/**
 * A file the build names by its content (`assets/index-BQ3x1yZk.js`, and its .br/.gz
 * copies): a new build gives a new name, so a cached copy never goes stale.
 */
export function isHashedAsset(pathFromRoot: string): boolean {
  return /^assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/.test(pathFromRoot);
}

/**
 * Serves the built console (`distDir`): the precompressed copies that the build wrote
 * next to each text file (`x.js.br`, `x.js.gz`, tools/precompress.ts) when the request
 * accepts them, hashed assets cached for a year as immutable, everything else —
 * index.html above all, which names the current assets — revalidated on every use with
 * its ETag (a 304 costs a few hundred bytes). A file without a precompressed copy is
 * compressed on the fly by server/http/compression.ts.
 */
export async function registerConsoleFiles(app: FastifyInstance, distDir: string): Promise<void> {
  if (!existsSync(distDir)) return;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // Cache-Control is set below; send's own (`public, max-age=0`) would override it.
    cacheControl: false,
    etag: true,
    lastModified: true,
    setHeaders(res, filePath) {
      const path = relative(distDir, filePath).split(sep).join('/');
      res.setHeader('Cache-Control', isHashedAsset(path) ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
      // The same URL is sent as brotli, gzip or plain: caches must keep them apart.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
}

/** The console's index.html for a client-side route (the SPA fallback), with the same headers as `/`. */
export function sendConsoleIndex(reply: FastifyReply): FastifyReply {
  // The not-found handler's reply starts as 404; @fastify/static keeps a status set before it.
  return reply.code(200).sendFile('index.html');
}
