import type { NextFunction, Request, Response } from 'express';
import { clientIp } from '../auth/auth-context';
import { DomainError } from '../common/errors/domain-error';
import type { InternalCalls } from '../common/http/internal-calls';
import { rateLimitRule } from './rate-limit-rules';
import type { RateLimiter } from './rate-limiter';

/**
 * Counts each request against its limit before anything else runs (the response cache included,
 * so cached answers are metered too) and refuses the excess with 429 and Retry-After.
 */
export function rateLimitMiddleware(
  limiter: RateLimiter,
  logRefusal: (req: Request, res: Response, startedAt: bigint) => void = () => undefined,
  internalCalls?: InternalCalls,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    // A web page's own API calls: the page view itself was already metered.
    if (internalCalls?.isInternal(req)) return next();
    const rule = rateLimitRule({ method: req.method, path: req.path, ip: clientIp(req) ?? 'unknown', authorization: req.headers.authorization });
    if (!rule) return next();
    limiter.check(rule).then((decision) => {
      if (decision.outcome === 'allowed') return next();
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      // Refused before the full access logger runs: the refusal gets its own access line.
      res.once('finish', () => logRefusal(req, res, startedAt));
      if (decision.outcome === 'limited') {
        next(new DomainError('rate-limited', 'rate-limited', `more than ${decision.limit} ${rule.bucket} requests a minute; try again in ${decision.retryAfterSeconds} s`));
      } else {
        next(new DomainError('unavailable', 'rate-limit-unavailable', 'the rate-limit counters cannot be reached, so this request cannot be metered; try again shortly'));
      }
    }, next);
  };
}
