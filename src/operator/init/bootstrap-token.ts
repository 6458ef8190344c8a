import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The install wizard's bootstrap token: held only in this process's memory (or fixed by
 * INIT_TOKEN), compared in constant time.
 */
export class BootstrapToken {
  private digest: Buffer | null = null;
  /** True when the operator fixed it with INIT_TOKEN; such a token is never logged. */
  readonly configured: boolean;
  readonly value: string;

  constructor(fixed: string | null) {
    this.configured = fixed !== null;
    this.value = fixed ?? randomBytes(24).toString('base64url');
    this.digest = createHash('sha256').update(this.value).digest();
  }

  matches(candidate: string | null): boolean {
    if (!candidate || !this.digest) return false;
    return timingSafeEqual(createHash('sha256').update(candidate).digest(), this.digest);
  }

  /** After the first admin exists the token is useless; drop it. */
  retire(): void {
    this.digest = null;
  }
}
