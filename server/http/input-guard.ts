/**
 * Validation before use, on every route (issue 24 item 3; docs/validation.md "Rules of
 * every field" and "Validation before use"). One `onRoute` hook, registered before any
 * route, so that no module has to remember either rule:
 *
 * - Every route's body, query and path schemas get the rules of every field
 *   (runtime/schema/input-rules.ts): no control character in a text, no infinite number.
 * - A route that attaches its validation result (`attachValidation`, so that it can check
 *   the caller's authority first and answer 40301 before 40001) cannot read what failed:
 *   while its handler runs, reading the part that failed, or a part Fastify did not
 *   validate because an earlier one failed, throws the validation's own 40001 refusal.
 *   A handler that read `req.body.menu` before its check answered 500 on a body of `null`;
 *   now it answers the refusal, whatever the handler's order.
 * - A part an API route declares no schema for (a query or body nobody described) is
 *   still held to the first rule: a control character anywhere in it is refused (40001 on
 *   its path) before the handler runs.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { hasControlCharacter, withInputRules } from '../../runtime/schema/input-rules.ts';
import { messageFor } from '../../runtime/schema/messages.ts';
import { invalidInput, refuseValidation } from '../resources/validation.ts';

/** The parts Fastify validates, in its order (params, body, querystring, headers); headers are left readable. */
const PARTS = ['params', 'body', 'query'] as const;
type Part = (typeof PARTS)[number];
const PART_OF_CONTEXT: Record<string, Part> = { params: 'params', body: 'body', querystring: 'query' };

type Handler = RouteOptions['handler'];
type ValidationError = NonNullable<FastifyRequest['validationError']> & { validationContext?: string };

export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema) {
      const schema = { ...route.schema };
      for (const part of ['body', 'querystring', 'params'] as const) if (schema[part]) schema[part] = withInputRules(schema[part]);
      route.schema = schema;
    }
    if (route.attachValidation) route.handler = guardUnvalidated(route.handler);
    const undeclared = (['params', 'body', 'querystring'] as const).filter((part) => !route.schema?.[part]).map((part) => (part === 'querystring' ? 'query' : part));
    // The API's JSON; the pages outside /api (the public trace page and its review form)
    // answer HTML and strip control characters from their form themselves (trace-page.ts).
    if (undeclared.length && route.url.startsWith('/api/')) {
      const own = route.preValidation ? (Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]) : [];
      route.preValidation = [refuseControlCharacters(undeclared), ...own];
    }
  });
}

/** The dot path of the first text (or key) holding a control character, '' for the value itself; null when none. */
export function controlCharacterAt(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return hasControlCharacter(value) ? path.join('.') : null;
  if (typeof value !== 'object' || value === null) return null;
  for (const [key, inner] of Object.entries(value)) {
    if (hasControlCharacter(key)) return [...path, key].join('.');
    const found = controlCharacterAt(inner, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

function refuseControlCharacters(parts: Part[]) {
  return async function refuseControlCharacters(req: FastifyRequest) {
    for (const part of parts) {
      const at = controlCharacterAt(req[part]);
      if (at !== null) throw invalidInput([{ field: at || part, message: messageFor({ rule: 'plainText' }, req.lang) }], req.lang);
    }
  };
}

function guardUnvalidated(handler: Handler): Handler {
  return function guarded(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
    const error = req.validationError as ValidationError | undefined;
    const failed = error ? PART_OF_CONTEXT[error.validationContext ?? ''] : undefined;
    if (!error || !failed) return handler.call(this, req, reply);
    const fenced = PARTS.slice(PARTS.indexOf(failed));
    const saved = fenced.map((part) => [part, req[part]] as const);
    for (const part of fenced) {
      Object.defineProperty(req, part, {
        configurable: true,
        enumerable: true,
        get() {
          throw refuseValidation(error, req.lang);
        },
      });
    }
    // Hooks after the handler (the trace, the audit) read the request as it came.
    const restore = () => {
      for (const [part, value] of saved) Object.defineProperty(req, part, { configurable: true, enumerable: true, writable: true, value });
    };
    try {
      const result = handler.call(this, req, reply) as unknown;
      if (result instanceof Promise) return result.finally(restore);
      restore();
      return result;
    } catch (e) {
      restore();
      throw e;
    }
  } as Handler;
}
