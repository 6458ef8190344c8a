import { Doorkeeper } from '../../common/doorkeeper';
import type { FreshnessStatement } from '../../lib/freshness';

/** Statements one reissue period asks for again and again: a few thousand plugins' platforms. */
const MAX_KEPT = 4096;
/** 2^16 bits (8 KiB): remembers about the last 8,000 statements asked once. */
const DOORKEEPER_BITS = 1 << 16;

interface Signer {
  kid: string;
  sign(statement: FreshnessStatement): string;
}

/**
 * Statements this instance signed, by signer and content. Signing again would give the same bytes
 * (Ed25519 is deterministic); this only spares the signature (~40 µs) when the response cache
 * does not hold the answer: credentialed requests, and every answer after a publish retires the
 * cache.
 *
 * A statement is kept on its second ask, not its first (a doorkeeper, as the response cache's):
 * `latest` on random slugs asks each statement once, and keeping each of them made a long-lived
 * key and JWS per request, promoted by every scavenge for the mark-compact to collect later. What
 * is kept lives in two generations of at most MAX_KEPT / 2: a full young map becomes the old one
 * and the old one is dropped whole, and a statement found in the old map moves to the young. So
 * no request iterates a Map (evicting by `keys().next()` walked the holes deletes leave at its
 * front) and what is asked keeps being kept.
 */
export class SignedStatements {
  private readonly doorkeeper = new Doorkeeper(DOORKEEPER_BITS);
  private young = new Map<string, string>();
  private old = new Map<string, string>();

  /** Statements kept now (for tests). */
  get size(): number {
    return this.young.size + this.old.size;
  }

  get(signer: Signer, statement: FreshnessStatement): string {
    const key = `${signer.kid}\n${JSON.stringify(statement)}`;
    const young = this.young.get(key);
    if (young !== undefined) return young;
    const old = this.old.get(key);
    if (old !== undefined) {
      this.keep(key, old);
      return old;
    }
    const jws = signer.sign(statement);
    if (this.doorkeeper.admits(key)) this.keep(key, jws);
    return jws;
  }

  private keep(key: string, jws: string): void {
    if (this.young.size >= MAX_KEPT / 2) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, jws);
  }
}
