import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const CIPHER = 'aes-256-gcm';
const KEY_LENGTH = 32;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

/** A private key at rest: AES-256-GCM ciphertext, its random nonce and its authentication tag. */
export interface SealedPrivateKey {
  ciphertext: Buffer;
  iv: Buffer;
  tag: Buffer;
}

/**
 * A stored signing key could not be decrypted: the key-encryption key is not the one it was
 * stored with, or the row was altered (GCM authenticates ciphertext and kid). Never garbage.
 */
export class SigningKeyDecryptionError extends Error {
  override readonly name = 'SigningKeyDecryptionError';

  constructor(
    readonly kid: string,
    reason = 'KEY_ENCRYPTION_KEY is not the key it was encrypted with, or the stored key was altered',
  ) {
    super(`signing key ${kid} cannot be decrypted: ${reason}`);
  }
}

/**
 * Encrypts signing keys at rest with `KEY_ENCRYPTION_KEY` (AES-256-GCM, random 12-byte IV, the
 * kid as additional authenticated data, so a ciphertext cannot be moved to another key's row).
 */
export class KeyEncryption {
  private readonly kek: Buffer;

  constructor(keyEncryptionKey: Uint8Array) {
    if (keyEncryptionKey.length !== KEY_LENGTH) {
      throw new TypeError(`the key-encryption key must be ${KEY_LENGTH} bytes, got ${keyEncryptionKey.length}`);
    }
    this.kek = Buffer.from(keyEncryptionKey);
  }

  seal(plaintext: Uint8Array, kid: string): SealedPrivateKey {
    const iv = randomBytes(IV_LENGTH);
    const cipher = createCipheriv(CIPHER, this.kek, iv, { authTagLength: TAG_LENGTH });
    cipher.setAAD(Buffer.from(kid, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return { ciphertext, iv, tag: cipher.getAuthTag() };
  }

  /** The plaintext, or SigningKeyDecryptionError; the caller should zero the buffer after use. */
  open(sealed: SealedPrivateKey, kid: string): Buffer {
    if (sealed.iv.length !== IV_LENGTH || sealed.tag.length !== TAG_LENGTH) {
      throw new SigningKeyDecryptionError(kid, 'the stored nonce or authentication tag has the wrong length');
    }
    const decipher = createDecipheriv(CIPHER, this.kek, sealed.iv, { authTagLength: TAG_LENGTH });
    decipher.setAAD(Buffer.from(kid, 'utf8'));
    decipher.setAuthTag(sealed.tag);
    try {
      return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
    } catch {
      throw new SigningKeyDecryptionError(kid);
    }
  }
}
