import { DomainError, type DomainErrorKind, type ProblemFieldError } from '../../common/errors/domain-error';
import { AssetFetchError } from '../../common/fetch';
import { PROBLEM_CATALOGUE } from '../../platform/problems/problem-catalogue';

/** Upstream refusals passed on as they are: the reader asked for something upstream's log does not hold or take. */
const PASSED_ON: Readonly<Record<number, DomainErrorKind>> = { 400: 'bad-request', 404: 'not-found', 410: 'gone', 422: 'invalid' };
const DEFAULT_CODE: Readonly<Record<number, string>> = { 400: 'bad-request', 404: 'not-found', 410: 'gone', 422: 'invalid' };
const MAX_DETAIL = 1000;
const MAX_FIELD_ERRORS = 50;

/** The fetch failed: no answer in time is 504, anything else (refused, 5xx, too large) 502. */
export function upstreamUnreadable(upstream: string, error: AssetFetchError): DomainError {
  const extensions = { upstream };
  if (error.reason === 'timeout')
    return new DomainError(
      'upstream-timeout',
      'upstream-log-timeout',
      `upstream's transparency log did not answer in time: ${error.message}`,
      undefined,
      extensions,
    );
  return new DomainError(
    'upstream-failed',
    'upstream-log-failed',
    `upstream's transparency log could not be read: ${error.message}`,
    undefined,
    extensions,
  );
}

/** An answer that is not what the route gives (not JSON, say): upstream is broken, not the reader's request. */
export function upstreamMalformed(upstream: string, what: string): DomainError {
  return new DomainError('upstream-failed', 'upstream-log-failed', `upstream's transparency log answered ${what}`, undefined, { upstream });
}

function fieldErrors(value: unknown): ProblemFieldError[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const errors = value
    .filter((item): item is ProblemFieldError => typeof item?.path === 'string' && typeof item?.message === 'string')
    .slice(0, MAX_FIELD_ERRORS)
    .map((item) => ({ path: item.path.slice(0, 200), message: item.message.slice(0, MAX_DETAIL) }));
  return errors.length ? errors : undefined;
}

/**
 * Upstream's 4xx, passed on with its status, code, detail and field errors (its problem body;
 * the type named under this registry's /problems, which has the same catalogue). A 4xx that says
 * something about the mirror's own request to upstream (401, 403, 429...) is upstream failing the
 * mirror, not the reader: 502.
 */
export function upstreamRefusal(upstream: string, status: number, body: Buffer): DomainError {
  const kind = PASSED_ON[status];
  if (!kind)
    return new DomainError('upstream-failed', 'upstream-log-failed', `upstream's transparency log answered HTTP ${status}`, undefined, {
      upstream,
    });
  let problem: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) problem = parsed as Record<string, unknown>;
  } catch {
    // Not a problem body: the status alone is passed on.
  }
  const named = typeof problem.type === 'string' ? problem.type.slice(problem.type.lastIndexOf('/') + 1) : '';
  const code = PROBLEM_CATALOGUE[named]?.status === status ? named : DEFAULT_CODE[status]!;
  const detail =
    typeof problem.detail === 'string' && problem.detail ? problem.detail.slice(0, MAX_DETAIL) : `upstream answered HTTP ${status}`;
  return new DomainError(kind, code, detail, fieldErrors(problem.errors), { upstream });
}
