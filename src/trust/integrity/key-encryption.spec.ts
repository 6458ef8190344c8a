import { randomBytes } from 'node:crypto';
import { exportPrivateKeyPkcs8 } from '../../lib/integrity';
import { keyA, keyB } from '../../lib/integrity/testdata/signing-fixtures';
import { KeyEncryption, SigningKeyDecryptionError } from './key-encryption';

describe('KeyEncryption', () => {
  const kek = randomBytes(32);
  const pkcs8 = exportPrivateKeyPkcs8(keyA.privateKey);
  const kid = keyA.jwk.kid;

  it('round-trips with the right key and kid', () => {
    const sealed = new KeyEncryption(kek).seal(pkcs8, kid);
    expect(new Uint8Array(new KeyEncryption(kek).open(sealed, kid))).toEqual(pkcs8);
  });

  it('stores no plaintext: the ciphertext is not the PKCS#8 bytes and holds no part of the seed', () => {
    const sealed = new KeyEncryption(kek).seal(pkcs8, kid);
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.tag).toHaveLength(16);
    expect(Buffer.compare(sealed.ciphertext, Buffer.from(pkcs8))).not.toBe(0);
    const seed = Buffer.from(pkcs8).subarray(-32);
    expect(sealed.ciphertext.includes(seed.subarray(0, 8))).toBe(false);
  });

  it('uses a fresh IV for every encryption', () => {
    const encryption = new KeyEncryption(kek);
    const first = encryption.seal(pkcs8, kid);
    const second = encryption.seal(pkcs8, kid);
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
  });

  it('refuses a wrong key-encryption key with a clear error, never garbage', () => {
    const sealed = new KeyEncryption(kek).seal(pkcs8, kid);
    const wrong = new KeyEncryption(randomBytes(32));
    expect(() => wrong.open(sealed, kid)).toThrow(SigningKeyDecryptionError);
    expect(() => wrong.open(sealed, kid)).toThrow(`signing key ${kid} cannot be decrypted: KEY_ENCRYPTION_KEY is not the key`);
  });

  it('binds the ciphertext to its kid (moving it to another key row fails)', () => {
    const sealed = new KeyEncryption(kek).seal(pkcs8, kid);
    expect(() => new KeyEncryption(kek).open(sealed, keyB.jwk.kid)).toThrow(SigningKeyDecryptionError);
  });

  it('detects tampering with ciphertext, tag or IV', () => {
    const encryption = new KeyEncryption(kek);
    const sealed = encryption.seal(pkcs8, kid);
    const flip = (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      copy[0] ^= 1;
      return copy;
    };
    expect(() => encryption.open({ ...sealed, ciphertext: flip(sealed.ciphertext) }, kid)).toThrow(SigningKeyDecryptionError);
    expect(() => encryption.open({ ...sealed, tag: flip(sealed.tag) }, kid)).toThrow(SigningKeyDecryptionError);
    expect(() => encryption.open({ ...sealed, iv: flip(sealed.iv) }, kid)).toThrow(SigningKeyDecryptionError);
    expect(() => encryption.open({ ...sealed, tag: sealed.tag.subarray(0, 8) }, kid)).toThrow(/wrong length/);
  });

  it('insists on a 32-byte key-encryption key', () => {
    expect(() => new KeyEncryption(randomBytes(16))).toThrow(/32 bytes/);
  });
});
