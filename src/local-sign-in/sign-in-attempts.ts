import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/errors/domain-error';
import { rateLimitRefusal } from '../rate-limit/rate-limit-refusal';
import { signInFailureRule } from '../rate-limit/rate-limit-rules';
import { RateLimiter } from '../rate-limit/rate-limiter';

/**
 * How many failed sign-ins an address and an account may take (settings
 * `ratelimit.signin_failures_per_*`, 15-minute windows; counters in Redis when it is set, else
 * in this process). The address's limit answers 429 (it tells nothing about any account); the
 * account's limit is only reported, so the caller answers exactly as for a wrong password.
 */
@Injectable()
export class SignInAttempts {
  constructor(private readonly limiter: RateLimiter) {}

  /** Throws the 429 when the address has failed too often; nothing is counted. */
  async checkAddress(ip: string | null): Promise<void> {
    const decision = await this.limiter.peek(signInFailureRule('ip', ip ?? 'unknown'));
    if (decision.outcome === 'allowed') return;
    if (decision.outcome === 'unavailable') throw rateLimitRefusal('signin', decision);
    throw new DomainError('rate-limited', 'rate-limited', `too many failed sign-ins from your address; try again in ${decision.retryAfterSeconds} s`, undefined, {
      retryAfter: decision.retryAfterSeconds,
    });
  }

  /** Whether the account is locked (too many recent failures); the counters being away locks it too. */
  async accountLocked(userId: string): Promise<boolean> {
    return (await this.limiter.peek(signInFailureRule('account', userId))).outcome !== 'allowed';
  }

  /** Counts a failure against the address and, when one was named that exists, the account. */
  async failed(ip: string | null, userId: string | null): Promise<void> {
    await this.limiter.charge(signInFailureRule('ip', ip ?? 'unknown'));
    if (userId) await this.limiter.charge(signInFailureRule('account', userId));
  }
}
