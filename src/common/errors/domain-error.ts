/** One item of a problem's `errors` list: a JSON pointer into the manifest or request, and why. */
export interface ProblemFieldError {
  path: string;
  message: string;
}

/**
 * The kinds of failure the domain reports. Each maps to one HTTP status in `problem-mapping.ts`;
 * services throw these and never think in status codes.
 */
export type DomainErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'invalid'
  | 'payload-too-large'
  | 'rate-limited'
  | 'upstream-failed'
  | 'upstream-timeout'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** Stable, machine-readable code, part of the problem `type` URI. */
    readonly code: string,
    /** Safe to show to the caller: never an internal message. */
    readonly detail: string,
    readonly errors?: readonly ProblemFieldError[],
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = 'DomainError';
  }
}

export const badRequest = (code: string, detail: string, errors?: ProblemFieldError[]) =>
  new DomainError('bad-request', code, detail, errors);
export const unauthorized = (detail = 'authentication required') => new DomainError('unauthorized', 'unauthorized', detail);
export const forbidden = (detail: string) => new DomainError('forbidden', 'forbidden', detail);
export const notFound = (detail: string) => new DomainError('not-found', 'not-found', detail);
export const conflict = (code: string, detail: string) => new DomainError('conflict', code, detail);
export const gone = (detail: string) => new DomainError('gone', 'gone', detail);
export const invalid = (code: string, detail: string, errors: ProblemFieldError[]) => new DomainError('invalid', code, detail, errors);
export const upstreamFailed = (code: string, detail: string) => new DomainError('upstream-failed', code, detail);
export const upstreamTimeout = (code: string, detail: string) => new DomainError('upstream-timeout', code, detail);
