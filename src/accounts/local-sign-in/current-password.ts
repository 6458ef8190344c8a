import { Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { RateLimitGate } from '../../platform/rate-limit/rate-limit-gate';
import type { HashSlot } from './password-hasher';
import { SignInAttempts } from './sign-in-attempts';

export const currentPasswordWrong = () => new DomainError('forbidden', 'current-password-wrong', 'the current password is wrong');

/**
 * A signed-in account's own password work (changing it, confirming it is you with it): limited per
 * account and per address, refused while the account is locked before anything is hashed, and a
 * wrong current password counts as a failed sign-in of the account.
 */
@Injectable()
export class CurrentPassword {
  constructor(
    private readonly gate: RateLimitGate,
    private readonly attempts: SignInAttempts,
  ) {}

  /** Counts the request (429 past `ratelimit.password_checks_per_hour`), then refuses a locked account (429 account-locked). Hashes nothing. */
  async admit(userId: string, ip: string | null): Promise<void> {
    await this.gate.passwordCheck(userId, ip);
    await this.attempts.refuseLocked(userId);
  }

  /** Checks `given` against the account's hash on the caller's slot; 403 current-password-wrong when it does not match (or the account has none). */
  async verify(slot: HashSlot, userId: string, hash: string | null, given: string): Promise<void> {
    const entry = await this.attempts.enterAccount(userId);
    // Locked since `admit` by attempts running beside this one: no hash for it.
    if (entry.locked) {
      await this.attempts.refuseLocked(userId);
      throw currentPasswordWrong();
    }
    if (hash === null || !(await slot.verify(given, hash))) throw currentPasswordWrong();
    await entry.succeeded();
  }
}
