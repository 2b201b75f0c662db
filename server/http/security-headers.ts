import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import type { ServerConfig } from '../config.ts';

/** HSTS for a year once a reply went out over TLS (directly, or via a trusted proxy's X-Forwarded-Proto). */
const HSTS = { maxAge: 365 * 24 * 60 * 60, includeSubDomains: true };

/**
 * Security headers on every reply, by @fastify/helmet (policy and reasons in
 * docs/auth-and-accounts.md, "Security headers").
 *
 * The console is built by Vite into module scripts loaded from our own origin, so scripts
 * come from 'self' only and never inline. Two allowances, each forced by a library:
 * - 'unsafe-eval': ajv (form validation via @rjsf/validator-ajv8, the schema checks)
 *   compiles JSON Schemas into functions in the browser;
 * - style-src 'unsafe-inline': antd's CSS-in-JS writes <style> elements and style attributes.
 */
export async function registerSecurityHeaders(app: FastifyInstance, config: ServerConfig): Promise<void> {
  const video = originOf(config.instructionVideoUrl);
  const tiles = originOf(config.tileUrl);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'unsafe-eval'"],
        'script-src-attr': ["'none'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        // Record images (logos, photos, article pictures) may live anywhere on https.
        'img-src': ["'self'", 'data:', 'blob:', 'https:', ...(tiles ? [tiles] : [])],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", ...(tiles ? [tiles] : [])],
        'media-src': ["'self'", 'blob:', ...(video ? [video] : [])],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
      },
    },
    // Older browsers read X-Frame-Options, newer ones frame-ancestors: both refuse framing.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent only over TLS (below): over plain HTTP the header means nothing and would be
    // wrong to promise.
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.helmet({ strictTransportSecurity: HSTS });
  });
}

/** The origin of a URL or tile template for a CSP source list (`{s}.tiles…` becomes `*.tiles…`). */
export function originOf(url: string): string | null {
  const m = /^(https?):\/\/([^/?#]+)/i.exec(url);
  if (!m) return null;
  const host = m[2].replace(/\{[^}]*\}/g, '*');
  return /^(\*\.)?[a-z0-9.-]+(:\d+)?$/i.test(host) ? `${m[1].toLowerCase()}://${host}` : null;
}
