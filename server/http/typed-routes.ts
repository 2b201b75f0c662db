import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';

/**
 * A Fastify instance whose route schemas type their handlers: `req.query`, `req.params` and
 * `req.body` are the types of the `as const` JSON Schemas of the route (json-schema-to-ts),
 * so no handler writes a second, hand-made copy of what its schema accepts. The legacy API's
 * plugins get the same through `FastifyPluginAsyncJsonSchemaToTs`.
 */
export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, JsonSchemaToTsProvider>;

/** The same instance, typed by its route schemas (no new context: hooks and decorators stay shared). */
export function typedRoutes(app: FastifyInstance): TypedApp {
  return app.withTypeProvider<JsonSchemaToTsProvider>();
}
