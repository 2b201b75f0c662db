import type { FastifyReply } from 'fastify';
import type { Lang } from '../i18n/lang.ts';
import type { Envelope, FieldError } from '../../runtime/protocol/envelope.ts';
import { httpStatusFor, Status } from '../../runtime/protocol/status.ts';

export type { Envelope, FieldError } from '../../runtime/protocol/envelope.ts';
export { httpStatusFor, Status } from '../../runtime/protocol/status.ts';

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

export const loggedOut = (key = 'auth.tokenInvalid') => new ApiError(Status.LOGGED_OUT, key);
export const forbidden = (key = 'auth.forbidden') => new ApiError(Status.FORBIDDEN, key);
export const business = (key: string, params: Record<string, string | number> = {}, details?: FieldError[] | ((lang: Lang) => FieldError[])) =>
  new ApiError(Status.BUSINESS, key, params, 400, details);
export const notFound = (key = 'common.notFound') => new ApiError(Status.NOT_FOUND, key);

export function send<T>(reply: FastifyReply, env: Envelope<T>, httpStatus = 200) {
  return reply.code(httpStatus).send(env);
}
