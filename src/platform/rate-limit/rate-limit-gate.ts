import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { clientAddressKey } from './client-address-key';
import { takeProvisionalCharge } from './provisional-charges';
import { type CooldownName, passwordCheckRule, type UserActionBucket, userActionRule } from './rate-limit-rules';
import { RateLimiter } from './rate-limiter';
import { cooldownRefusal, rateLimitRefusal } from './rate-limit-refusal';

/**
 * The limits that can only be judged once somebody is known: a verified publisher token, a
 * signed-in user, a plugin the caller may act on. Each method returns when the action may go
 * on and throws the 429 (Retry-After) or 503 otherwise; a refused action has done nothing yet.
 */
@Injectable()
export class RateLimitGate {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The request's publisher token verified: from now on it counts against the token, not the address. */
  async tokenVerified(request: Request): Promise<void> {
    const charge = takeProvisionalCharge(request);
    // Counted under the token by the middleware already (it verified earlier in the window), or not metered (an internal call).
    if (!charge) return;
    const decision = await this.limiter.tokenVerified(charge);
    if (decision.outcome !== 'allowed') throw rateLimitRefusal(charge.rule.bucket, decision);
  }

  /** One more signed-in action of this kind by this user. */
  async userAction(bucket: UserActionBucket, userId: string): Promise<void> {
    const decision = await this.limiter.check(userActionRule(bucket, userId));
    if (decision.outcome !== 'allowed') throw rateLimitRefusal(bucket, decision);
  }

  /** One more password change or check by this signed-in account, from this address: both counted, either may refuse. */
  async passwordCheck(userId: string, ip: string | null): Promise<void> {
    for (const rule of [
      passwordCheckRule('account', userId),
      passwordCheckRule('ip', clientAddressKey(ip, this.config.rateLimitIpv6PrefixBits)),
    ]) {
      const decision = await this.limiter.check(rule);
      if (decision.outcome !== 'allowed') throw rateLimitRefusal(rule.bucket, decision);
    }
  }

  /** Starts the cooldown `name` for `subject`, or says how long the running one has left. */
  async cooldown(name: CooldownName, subject: string, what: string): Promise<void> {
    const decision = await this.limiter.startCooldown(name, subject);
    if (decision.outcome !== 'allowed') throw cooldownRefusal(what, decision);
  }
}
