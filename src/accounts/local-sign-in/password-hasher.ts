import { Inject, Injectable } from '@nestjs/common';
import { DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { hashPassword, verifyPassword } from '../../lib/password/password-hash';

/** One of the instance's scrypt slots, held until `release`. */
export interface HashSlot {
  hash(password: string): Promise<string>;
  verify(password: string, encoded: string): Promise<boolean>;
  release(): void;
}

/** How long a refused caller is told to wait: a hash takes about a tenth of a second. */
const BUSY_RETRY_AFTER_S = 1;

export const hashingBusy = () =>
  new DomainError(
    'unavailable',
    'password-hashing-busy',
    'too many password checks are running on this server right now; try again in a second',
    undefined,
    {
      retryAfter: BUSY_RETRY_AFTER_S,
    },
  );

/**
 * Every password hash the instance computes goes through here: at most PASSWORD_HASH_CONCURRENCY
 * at once. Each scrypt takes 32 MiB and a libuv worker thread for about 0.1 s, so unbounded ones
 * (a loop of password changes) starve everybody's sign-in; past the cap a caller is refused at
 * once (503), never queued, since a queue only moves the pile-up into memory.
 */
@Injectable()
export class PasswordHasher {
  private running = 0;
  private readonly cap: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.cap = config.passwordHashConcurrency;
  }

  /**
   * Takes a slot now, or throws the 503: callers take it before they count an attempt, so a
   * refused request has counted and hashed nothing. The slot's hashes run one after another.
   */
  reserve(): HashSlot {
    if (this.running >= this.cap) throw hashingBusy();
    this.running++;
    let held = true;
    return {
      hash: (password) => hashPassword(password),
      verify: (password, encoded) => verifyPassword(password, encoded),
      release: () => {
        if (held) this.running--;
        held = false;
      },
    };
  }

  /** `work` with a slot held, released however it ends. */
  async withSlot<T>(work: (slot: HashSlot) => Promise<T>): Promise<T> {
    const slot = this.reserve();
    try {
      return await work(slot);
    } finally {
      slot.release();
    }
  }
}
