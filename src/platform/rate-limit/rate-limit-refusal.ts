import { DomainError } from '../../common/errors/domain-error';
import type { RateLimitBucket } from './rate-limit-rules';
import type { CooldownDecision, RateLimitDecision } from './rate-limiter';

const per = (windowMs: number) => (windowMs >= 3_600_000 ? 'an hour' : 'a minute');

/** The 429 (or, counters unreachable, 503) a refused decision answers; `retryAfter` becomes the Retry-After header. */
export function rateLimitRefusal(bucket: RateLimitBucket, decision: Exclude<RateLimitDecision, { outcome: 'allowed' }>): DomainError {
  if (decision.outcome === 'unavailable') return counterStoreUnavailable(decision.retryAfterSeconds);
  return new DomainError(
    'rate-limited',
    'rate-limited',
    `more than ${decision.limit} ${bucket} requests ${per(decision.windowMs)}; try again in ${decision.retryAfterSeconds} s`,
    undefined,
    { retryAfter: decision.retryAfterSeconds },
  );
}

export function cooldownRefusal(what: string, decision: Exclude<CooldownDecision, { outcome: 'allowed' }>): DomainError {
  if (decision.outcome === 'unavailable') return counterStoreUnavailable(decision.retryAfterSeconds);
  return new DomainError(
    'rate-limited',
    'rate-limited',
    `${what} runs at most once every ${decision.cooldownSeconds} s; try again in ${decision.retryAfterSeconds} s`,
    undefined,
    { retryAfter: decision.retryAfterSeconds },
  );
}

function counterStoreUnavailable(retryAfterSeconds: number): DomainError {
  return new DomainError(
    'unavailable',
    'rate-limit-unavailable',
    'the rate-limit counters cannot be reached, so this request cannot be metered; try again shortly',
    undefined,
    { retryAfter: retryAfterSeconds },
  );
}
