/**
 * Route schemas compiled once per process, by content. Building the API compiles some six
 * hundred request validators (ajv) and response serializers (fast-json-stringify): about
 * three seconds of a server's start on the 2-core machine, most of its start. One server
 * per process pays it once as before; a process that starts servers again and again (each
 * test file starts its own, the benchmarks one per engine) compiles each schema only the
 * first time it sees it. A compiled function depends on its schema, the part of the request
 * it checks, the server's shared schemas and the compiler's options, which is what the key
 * holds; the options that are functions (ajv plugins) are the same module-level functions
 * in every server of a process.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type RouteSchema = { schema: unknown; httpPart?: string; httpStatus?: string; contentType?: string };
type Builder = (externalSchemas: unknown, options: unknown) => (route: RouteSchema) => unknown;

/** Compiled functions kept, at most: far more than the API's routes, bounded all the same. */
const MAX_KEPT = 20_000;

function cachedBuilder(pool: Builder, optionsKey: (options: unknown) => unknown): Builder {
  const compiled = new Map<string, unknown>();
  return (externalSchemas, options) => {
    const compile = pool(externalSchemas, options);
    const base = `${JSON.stringify(externalSchemas)}\0${JSON.stringify(optionsKey(options) ?? null)}`;
    return (route) => {
      const key = `${base}\0${route.httpPart ?? ''}\0${route.contentType ?? ''}\0${JSON.stringify(route.schema)}`;
      let fn = compiled.get(key);
      if (fn === undefined) {
        fn = compile(route);
        if (compiled.size >= MAX_KEPT) compiled.clear();
        compiled.set(key, fn);
      }
      return fn;
    };
  };
}

/** Fastify's `schemaController.compilersFactory`: its own compilers, with a cache shared by the process's servers. */
type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
export const sharedCompilersFactory = {
  buildValidator: cachedBuilder(AjvCompiler() as unknown as Builder, (o) => (o as { customOptions?: unknown } | undefined)?.customOptions),
  buildSerializer: cachedBuilder(SerializerSelector() as unknown as Builder, (o) => o),
} as unknown as CompilersFactory;
