import type { KeyObject } from 'node:crypto';
import { generateSigningKey } from '../../lib/integrity';

/**
 * Where new Ed25519 signing keys come from. Injectable so tests can hand out fixed keys
 * (known-answer signatures, predictable kids); production uses fresh random keys.
 */
export abstract class SigningKeyGenerator {
  /** A new Ed25519 private key. */
  abstract generate(): KeyObject;
}

export class RandomSigningKeyGenerator extends SigningKeyGenerator {
  generate(): KeyObject {
    return generateSigningKey().privateKey;
  }
}
