import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';

/**
 * The OpenAPI document of the whole API, generated from the route schemas as routes are
 * registered (the resource routes' schemas come from the resource documents), so that
 * nothing is described twice. Register before the /api plugin: only routes added after
 * this are collected. Served raw (not in the envelope) so that tools read it as is.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Farm back-office API',
        version: '1',
        description:
          'Every reply is the envelope {status, message, data} (status 200 success, 40001 invalid input with data.errors [{field, message}], 40101 logged out, 40301 no authority, 40401 not found in your scope). Messages follow the language cookie or Accept-Language (zh, en, es). Paged replies are data {rows, total, pageIndex, pageSize}.',
      },
      components: {
        securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'The token from POST /api/auth/jwt/token, raw or as "Bearer <token>".' } },
      },
      security: [{ token: [] }],
    },
    transform: ({ schema, url, route }) => {
      // Public routes need no token: say so per operation. The token is asked for by the
      // /api plugin's hook (server/app.ts), so a route outside /api (the public trace page
      // /t/:code) is public by where it lives; inside, by its `public` config.
      const isPublic = (route.config as { public?: boolean } | undefined)?.public === true || !url.startsWith('/api/');
      return { schema: isPublic ? { ...schema, security: [] } : schema, url };
    },
  });
  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}

/** One way to be allowed an operation: a menu code, with an element code for writes. */
export interface Grant {
  menu: string;
  element?: string;
  /** `authority` (the resource's own code), `alias` (another menu entry of the same screen), `read-only` (readAuthorities). */
  kind: 'authority' | 'alias' | 'read-only';
}

/**
 * What the OpenAPI operation says about its authority: every grant that the engine's guard
 * accepts, in words (description) and as data (`x-authorities`, any one suffices).
 */
export function authorityDoc(grants: readonly Grant[]): { text: string; 'x-authorities': { anyOf: Grant[] } } {
  const words = grants.map((g) => {
    const menu = `menu code ${g.menu}${g.kind === 'authority' ? '' : ` (${g.kind === 'alias' ? 'alias' : 'read-only grant'})`}`;
    return g.element ? `${menu} with element code ${g.element}` : menu;
  });
  return { text: `Needs ${words.join(', or ')}`, 'x-authorities': { anyOf: [...grants] } };
}
