import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';

/** Replies smaller than this go as they are: below about a kilobyte the headers outweigh the saving. */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Compresses dynamic replies (JSON of the API, the OpenAPI document, a console file that
 * has no precompressed copy) with brotli or gzip, as the request's Accept-Encoding allows.
 * Brotli at quality 4: per request, quality 11 costs tens of milliseconds of CPU for a
 * few percent; the console's files are compressed at quality 11 once, at build time
 * (tools/precompress.ts). Request bodies are never inflated: a small gzip body could
 * unpack past the body limit's intent, and no client of this API sends one.
 *
 * Registered before every route: @fastify/compress attaches its hook to routes as they are added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    globalCompression: true,
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
