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
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { withInputRules } from '../../runtime/schema/input-rules.ts';
import { refuseValidation } from '../resources/validation.ts';

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
  });
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
