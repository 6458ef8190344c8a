import type { FreshnessStatement } from '../lib/freshness';

/** Statements one reissue period asks for again and again: a few thousand plugins' platforms. */
const MAX_KEPT = 4096;

interface Signer {
  kid: string;
  sign(statement: FreshnessStatement): string;
}

/**
 * Statements this instance signed, by signer and content, least recently used dropped first.
 * Signing again would give the same bytes (Ed25519 is deterministic); this only spares the
 * signature (~40 µs) when the response cache does not hold the answer: credentialed requests,
 * and every answer after a publish retires the cache.
 */
export class SignedStatements {
  private readonly byContent = new Map<string, string>();

  get(signer: Signer, statement: FreshnessStatement): string {
    const key = `${signer.kid}\n${JSON.stringify(statement)}`;
    const kept = this.byContent.get(key);
    if (kept !== undefined) {
      this.byContent.delete(key);
      this.byContent.set(key, kept);
      return kept;
    }
    const jws = signer.sign(statement);
    this.byContent.set(key, jws);
    if (this.byContent.size > MAX_KEPT) this.byContent.delete(this.byContent.keys().next().value as string);
    return jws;
  }
}
