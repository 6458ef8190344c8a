import type { IncomingHttpHeaders } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { clientIp } from '../auth/auth-context';
import type { InternalCalls } from '../../common/http/internal-calls';
import { clientAddressKey } from './client-address-key';
import { rateLimitRefusal } from './rate-limit-refusal';
import { rateLimitRule, type RateLimitRule } from './rate-limit-rules';
import type { RateLimitDecision, RateLimiter } from './rate-limiter';
import { leaveProvisionalCharge } from './provisional-charges';

/** What metering reads of a request. */
export interface MeteredRequest {
  method: string;
  path: string;
  ip: string | null;
  headers: IncomingHttpHeaders;
}

/** How requests are metered: the IPv6 prefix a client is counted by, and who is calling from inside. */
export interface Metering {
  ipv6PrefixBits: number;
  internalCalls?: InternalCalls;
}

/** The rule a request is counted under, or null: none applies, or a web page's own API call (the page view itself was already metered). */
export function meteringRule(request: MeteredRequest, metering: Metering): RateLimitRule | null {
  if (metering.internalCalls?.isInternal(request)) return null;
  const client = clientAddressKey(request.ip, metering.ipv6PrefixBits);
  return rateLimitRule({ method: request.method, path: request.path, client, authorization: request.headers.authorization });
}

/** Decisions taken for a request before Express saw it (the catalogue lane), so it is never counted twice. */
const decidedAhead = new WeakMap<object, { rule: RateLimitRule; decision: RateLimitDecision }>();

/** Hands the decision already taken for `request` to the middleware, which then does not count it again. */
export function meteredAhead(request: object, rule: RateLimitRule, decision: RateLimitDecision): void {
  decidedAhead.set(request, { rule, decision });
}

/**
 * Counts each request against its limit before anything else runs (the response cache included,
 * so cached answers are metered too) and refuses the excess with 429 and Retry-After.
 */
export function rateLimitMiddleware(
  limiter: RateLimiter,
  metering: Metering,
  logRefusal: (req: Request, res: Response, startedAt: bigint) => void = () => undefined,
) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = process.hrtime.bigint();
    const ahead = decidedAhead.get(req);
    const rule = ahead?.rule ?? meteringRule({ method: req.method, path: req.path, ip: clientIp(req), headers: req.headers }, metering);
    if (!rule) return next();
    (ahead ? Promise.resolve(ahead.decision) : limiter.check(rule)).then((decision) => {
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
