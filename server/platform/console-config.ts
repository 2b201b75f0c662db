import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { ok } from '../http/envelope.ts';

/**
 * GET /api/console/config (public: the login page may need it too): the parts of the
 * server's configuration the console shows — the instruction video address, the city
 * whose users see the header title (spec section 1), the map tile URL template.
 * Nothing secret lives in these three settings.
 */
export const consoleConfigRoutes: FastifyPluginAsyncJsonSchemaToTs = async (app) => {
  app.get(
    '/console/config',
    {
      config: { public: true },
      schema: {
        tags: ['console'],
        summary: 'Console settings from the server configuration: instruction video, header-title city, map tiles',
        response: {
          200: {
            type: 'object',
            // Only declared keys are serialized either way; saying so lets the reply type the handler.
            additionalProperties: false,
            properties: {
              status: { type: 'integer' },
              message: { type: 'string' },
              data: {
                type: 'object',
                additionalProperties: false,
                properties: { instructionVideoUrl: { type: 'string' }, headerTitleCity: { type: 'string' }, tileUrl: { type: 'string' } },
                required: ['instructionVideoUrl', 'headerTitleCity', 'tileUrl'],
              },
            },
          },
        } as const,
      },
    },
    async () => {
      const { instructionVideoUrl, headerTitleCity, tileUrl } = app.config;
      return ok({ instructionVideoUrl, headerTitleCity, tileUrl });
    },
  );
};
