import type { NextFunction, Request, Response } from 'express';
import { clientIp } from '../auth/auth-context';
import type { InternalCalls } from '../common/http/internal-calls';
import { rateLimitRefusal } from './rate-limit-refusal';
import { rateLimitRule } from './rate-limit-rules';
import type { RateLimiter } from './rate-limiter';
import { leaveProvisionalCharge } from './provisional-charges';

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
      if (decision.outcome === 'allowed') {
        if (decision.provisional) leaveProvisionalCharge(req, decision.provisional);
        return next();
      }
      res.setHeader('Retry-After', String(decision.retryAfterSeconds));
      // Refused before the full access logger runs: the refusal gets its own access line.
      res.once('finish', () => logRefusal(req, res, startedAt));
      next(rateLimitRefusal(rule.bucket, decision));
    }, next);
  };
}
