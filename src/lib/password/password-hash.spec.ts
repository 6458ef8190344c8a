import { CURRENT_SCRYPT, hashPassword, needsRehash, passwordProblem, verifyPassword } from './password-hash';

// Cheap parameters where the parameters are not the point: these are unit tests of the encoding.
const CHEAP = { ln: 10, r: 8, p: 1 };

describe('password hashes', () => {
  it('are scrypt with the current parameters, salted, and verify only the right password', async () => {
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(CURRENT_SCRYPT.ln).toBeGreaterThanOrEqual(15);
    await expect(verifyPassword('correct horse battery', hash)).resolves.toBe(true);
    await expect(verifyPassword('correct horse batterY', hash)).resolves.toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(hash);
  });

  it('keep their parameters, so older hashes verify and are marked for a rehash', async () => {
    const old = await hashPassword('an older password', CHEAP);
    expect(old.startsWith('$scrypt$ln=10,r=8,p=1$')).toBe(true);
    await expect(verifyPassword('an older password', old)).resolves.toBe(true);
    expect(needsRehash(old)).toBe(true);
    expect(needsRehash(await hashPassword('x', { ...CURRENT_SCRYPT, ln: CURRENT_SCRYPT.ln }, Buffer.alloc(16, 1)))).toBe(false);
  });

  it('match nothing when malformed or asking for absurd work', async () => {
    for (const bad of [
      '',
      'plain',
      '$scrypt$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '$argon2id$v=19$m=1,t=1,p=1$AAAA$AAAA',
    ]) {
      await expect(verifyPassword('anything', bad)).resolves.toBe(false);
      expect(needsRehash(bad)).toBe(true);
    }
  });

  it('refuse new passwords that are short, too long, or the login', () => {
    expect(passwordProblem('short', 'alice')).toBe('must be at least 10 characters long');
    expect(passwordProblem('x'.repeat(257), 'alice')).toBe('must be at most 256 characters long');
    expect(passwordProblem('AliceAlice', 'alicealice')).toBe('must not be the login');
    expect(passwordProblem('a fine passphrase', 'alice')).toBeNull();
  });
});
