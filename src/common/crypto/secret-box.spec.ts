import { randomBytes } from 'node:crypto';
import { open, seal, SecretBoxError } from './secret-box';

describe('secret box', () => {
  const key = randomBytes(32);

  it('round-trips and never stores the plaintext', () => {
    const sealed = seal(key, Buffer.from('gho_provider_token'), 'user:1');
    expect(sealed.includes(Buffer.from('gho_provider_token'))).toBe(false);
    expect(open(key, sealed, 'user:1').toString()).toBe('gho_provider_token');
  });

  it('refuses a wrong key, another context, or a flipped bit', () => {
    const sealed = seal(key, Buffer.from('secret'), 'user:1');
    expect(() => open(randomBytes(32), sealed, 'user:1')).toThrow(SecretBoxError);
    expect(() => open(key, sealed, 'user:2')).toThrow(SecretBoxError);
    const flipped = Buffer.from(sealed);
    flipped[flipped.length - 1] ^= 1;
    expect(() => open(key, flipped, 'user:1')).toThrow(SecretBoxError);
    expect(() => open(key, Buffer.alloc(3), 'user:1')).toThrow(SecretBoxError);
  });
});
