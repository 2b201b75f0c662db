/** Body status codes of spec section 9, and the HTTP status each one travels with. */
export const Status = {
  OK: 200,
  LOGGED_OUT: 40101,
  FORBIDDEN: 40301,
  BUSINESS: 40001,
  NOT_FOUND: 40401,
  TOO_MANY: 42901,
  INTERNAL: 50001,
} as const;

export type StatusCode = (typeof Status)[keyof typeof Status];

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
