import { HttpException, HttpStatus } from '@nestjs/common';
import { STATUS_CODES } from 'node:http';
import { describeBytes } from '../http/body-limits';
import { DomainError, type DomainErrorKind, type ProblemFieldError } from './domain-error';

/** RFC 9457 problem details, as every error response carries them. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: ProblemFieldError[];
  [extension: string]: unknown;
}

/** The one place where domain failures become HTTP statuses. */
export const STATUS_BY_KIND: Readonly<Record<DomainErrorKind, number>> = {
  'bad-request': HttpStatus.BAD_REQUEST,
  unauthorized: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  'not-found': HttpStatus.NOT_FOUND,
  conflict: HttpStatus.CONFLICT,
  gone: HttpStatus.GONE,
  invalid: HttpStatus.UNPROCESSABLE_ENTITY,
  'payload-too-large': HttpStatus.PAYLOAD_TOO_LARGE,
  'rate-limited': HttpStatus.TOO_MANY_REQUESTS,
  'upstream-failed': HttpStatus.BAD_GATEWAY,
  'upstream-timeout': HttpStatus.GATEWAY_TIMEOUT,
  unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad-request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not-found',
  405: 'method-not-allowed',
  406: 'not-acceptable',
  409: 'conflict',
  410: 'gone',
  413: 'payload-too-large',
  415: 'unsupported-media-type',
  422: 'invalid',
  429: 'rate-limited',
  500: 'internal',
  502: 'upstream-failed',
  503: 'unavailable',
};

const payloadTooLargeDetail = (limit?: number) =>
  typeof limit === 'number'
    ? `the request body is larger than the ${describeBytes(limit)} limit`
    : 'the request body is larger than this route accepts';

function title(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

export function problemType(baseUrl: string, code: string): string {
  return `${baseUrl}/problems/${code}`;
}

export function problemFromDomainError(error: DomainError, baseUrl: string): Problem {
  const status = STATUS_BY_KIND[error.kind];
  return {
    ...error.extensions,
    type: problemType(baseUrl, error.code),
    title: title(status),
    status,
    detail: error.detail,
    ...(error.errors ? { errors: [...error.errors] } : {}),
  };
}

/** Framework errors (unknown route, body parser) keep their status but get our shape and wording. */
export function problemFromHttpException(error: HttpException, baseUrl: string): Problem {
  const status = error.getStatus();
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad-request');
  const detail = status >= 500 ? 'the server could not complete the request' : safeHttpDetail(error, status);
  return { type: problemType(baseUrl, code), title: title(status), status, detail };
}

/**
 * Framework exceptions carry library messages (parser errors, positions); none of that is ours to
 * show, so each status gets fixed wording.
 */
function safeHttpDetail(error: HttpException, status: number): string {
  if (status === 404) return 'no such resource';
  if (status === 413) return payloadTooLargeDetail();
  if (status === 400) return /JSON/.test(error.message) ? 'the request body is not valid JSON' : 'the request could not be read';
  return title(status).toLowerCase();
}

/** The body parser's refusals (and the JSON-only rule), each saying what to send instead. */
export function problemFromBodyParserError(type: string | undefined, status: number, baseUrl: string, limit?: number): Problem {
  if (status === 413) {
    return { type: problemType(baseUrl, 'payload-too-large'), title: title(413), status, detail: payloadTooLargeDetail(limit) };
  }
  if (status === 415) {
    return {
      type: problemType(baseUrl, 'unsupported-media-type'),
      title: title(415),
      status,
      detail: 'the request body must be JSON: send it with Content-Type: application/json',
    };
  }
  const detail = type === 'entity.parse.failed' ? 'the request body is not valid JSON' : 'the request body could not be read';
  return { type: problemType(baseUrl, 'bad-request'), title: title(400), status: 400, detail };
}

export function internalProblem(baseUrl: string): Problem {
  return {
    type: problemType(baseUrl, 'internal'),
    title: title(500),
    status: 500,
    detail: 'the server could not complete the request',
  };
}
