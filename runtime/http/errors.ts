import type { FieldError as FieldProblem } from '../protocol/envelope.ts';

/** What went wrong with a call, as the error catalogue of spec section 8 tells them apart. */
export type HttpErrorKind =
  /** HTTP 401 or body status 40101: the session is over. */
  | 'loggedOut'
  /** Body status 40301: outside the user's authority, or the login timed out. */
  | 'forbidden'
  /** Body status 40001: a business rule refused the call; `message` is the server's. */
  | 'business'
  /** No reply within the time-out. */
  | 'timeout'
  /** The request never got a reply (offline, refused, reset). */
  | 'network'
  /** A reply that matches no rule of the catalogue: no data and no UI effect. */
  | 'unexpected';

export type { FieldError as FieldProblem } from '../protocol/envelope.ts';

export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly kind: HttpErrorKind,
    message: string,
    readonly httpStatus: number | null = null,
    /** The envelope's status, when the reply had one. */
    readonly status: number | null = null,
    readonly body: unknown = null,
  ) {
    super(message);
  }

  /** The server's message, when the reply carried one. */
  get serverMessage(): string | undefined {
    const msg = (this.body as { message?: unknown } | null)?.message;
    return typeof msg === 'string' && msg ? msg : undefined;
  }

  /** Field-level problems (`data.errors`) for forms to show next to their fields. */
  get fieldErrors(): FieldProblem[] {
    const errors = (this.body as { data?: { errors?: unknown } } | null)?.data?.errors;
    return Array.isArray(errors)
      ? errors.filter((e): e is FieldProblem => typeof e?.field === 'string' && typeof e?.message === 'string')
      : [];
  }
}

export function isHttpError(e: unknown): e is HttpError {
  return e instanceof HttpError;
}
