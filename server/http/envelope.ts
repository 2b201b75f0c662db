import type { FastifyReply } from 'fastify';
import type { Lang } from '../i18n/lang.ts';

/** Body status codes of spec section 9. */
export const Status = {
  OK: 200,
  LOGGED_OUT: 40101,
  FORBIDDEN: 40301,
  BUSINESS: 40001,
  NOT_FOUND: 40401,
  TOO_MANY: 42901,
  INTERNAL: 50001,
} as const;

export interface Envelope<T = unknown> {
  status: number;
  message: string;
  data: T;
}

/** A field-level problem, for forms to show next to their field. */
export interface FieldError {
  field: string;
  message: string;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { status: Status.OK, message, data };
}

/**
 * A refusal that the error handler turns into the envelope. `message` is a key of the
 * server's message catalogue (or already translated text when `translated`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly key: string,
    readonly params: Record<string, string | number> = {},
    readonly httpStatus = httpStatusFor(status),
    readonly details?: FieldError[] | ((lang: Lang) => FieldError[]),
  ) {
    super(key);
  }
}

export function httpStatusFor(status: number): number {
  switch (status) {
    case Status.LOGGED_OUT:
      return 401;
    case Status.FORBIDDEN:
      return 403;
    case Status.BUSINESS:
      return 400;
    case Status.NOT_FOUND:
      return 404;
    case Status.TOO_MANY:
      return 429;
    default:
      return status >= 200 && status < 600 ? status : 500;
  }
}

export const loggedOut = (key = 'auth.tokenInvalid') => new ApiError(Status.LOGGED_OUT, key);
export const forbidden = (key = 'auth.forbidden') => new ApiError(Status.FORBIDDEN, key);
export const business = (key: string, params: Record<string, string | number> = {}, details?: FieldError[] | ((lang: Lang) => FieldError[])) =>
  new ApiError(Status.BUSINESS, key, params, 400, details);
export const notFound = (key = 'common.notFound') => new ApiError(Status.NOT_FOUND, key);

export function send<T>(reply: FastifyReply, env: Envelope<T>, httpStatus = 200) {
  return reply.code(httpStatus).send(env);
}
