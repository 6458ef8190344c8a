import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { clientAddressKey } from '../../platform/rate-limit/client-address-key';
import { rateLimitRefusal } from '../../platform/rate-limit/rate-limit-refusal';
import { signInFailureRule } from '../../platform/rate-limit/rate-limit-rules';
import { type RateLimitDecision, RateLimiter } from '../../platform/rate-limit/rate-limiter';

/** An attempt under way, counted as failed until `succeeded` hands its counts back. */
export interface SignInEntry {
  /** The account has failed too often: answer as for a wrong password. */
  readonly locked: boolean;
  succeeded(): Promise<void>;
}

/**
 * How many failed sign-ins an address and an account may take (settings
 * `ratelimit.signin_failures_per_*`, 15-minute windows; counters in Redis when it is set, else
 * in this process). The address's limit answers 429 (it tells nothing about any account); the
 * account's limit is only reported, so the caller answers exactly as for a wrong password.
 */
@Injectable()
export class SignInAttempts {
  constructor(
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The address's rule: an IPv6 client is counted by its network, as the request limits count it. */
  private addressRule(ip: string | null) {
    return signInFailureRule('ip', clientAddressKey(ip, this.config.rateLimitIpv6PrefixBits));
  }

  /** Throws the 429 when the address has failed too often; nothing is counted. */
  async checkAddress(ip: string | null): Promise<void> {
    const decision = await this.limiter.peek(this.addressRule(ip));
    if (decision.outcome !== 'allowed') this.refuse(decision);
  }

  private refuse(decision: Exclude<RateLimitDecision, { outcome: 'allowed' }>): never {
    if (decision.outcome === 'unavailable') throw rateLimitRefusal('signin', decision);
    throw new DomainError(
      'rate-limited',
      'rate-limited',
      `too many failed sign-ins from your address; try again in ${decision.retryAfterSeconds} s`,
      undefined,
      {
        retryAfter: decision.retryAfterSeconds,
      },
    );
  }

  /**
   * An attempt from this address (a passkey answer, a sign-in link), counted as a failure as it
   * starts, before anything is verified, so attempts sent in parallel cannot verify more than the
   * limit allows. Throws the 429 (handing its count back); `succeeded` hands the count back.
   */
  async enterAddress(ip: string | null): Promise<{ succeeded(): Promise<void> }> {
    const address = await this.limiter.reserve(this.addressRule(ip));
    if (address.decision.outcome !== 'allowed') {
      await this.limiter.refund(address.key);
      this.refuse(address.decision);
    }
    return { succeeded: () => this.limiter.refund(address.key) };
  }

  /**
   * A password attempt: `enterAddress`, and counted against the account too. Reports whether the
   * account is locked. `succeeded` hands both counts back.
   */
  async enter(ip: string | null, account: string): Promise<SignInEntry> {
    const address = await this.enterAddress(ip);
    const held = await this.enterAccount(account);
    return {
      locked: held.locked,
      succeeded: async () => {
        await address.succeeded();
        await held.succeeded();
      },
    };
  }

  /**
   * For a signed-in account's own password work: throws 429 (account-locked, Retry-After) while
   * the account is locked, before anything is hashed; nothing is counted. Its holder is signed
   * in, so saying it is locked tells nobody anything new.
   */
  async refuseLocked(account: string): Promise<void> {
    const decision = await this.limiter.peek(signInFailureRule('account', account));
    if (decision.outcome === 'unavailable') throw rateLimitRefusal('signin', decision);
    if (decision.outcome !== 'allowed') {
      throw new DomainError(
        'rate-limited',
        'account-locked',
        `too many wrong passwords for this account; try again in ${decision.retryAfterSeconds} s`,
        undefined,
        {
          retryAfter: decision.retryAfterSeconds,
        },
      );
    }
  }

  /** The account's part of `enter` alone (the current password given to change it). */
  async enterAccount(account: string): Promise<SignInEntry> {
    const held = await this.limiter.reserve(signInFailureRule('account', account));
    return { locked: held.decision.outcome !== 'allowed', succeeded: () => this.limiter.refund(held.key) };
  }
}
