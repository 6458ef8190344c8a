import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashes with scrypt (memory-hard), encoded PHC-style so the parameters travel with
 * the hash and can be raised later: `$scrypt$ln=15,r=8,p=1$<salt>$<key>` (salt and key in
 * unpadded base64). A hash made with weaker parameters still verifies; `needsRehash` says when
 * to store a fresh one (on the next successful sign-in). Framework-free: the CLI uses it too.
 */
export interface ScryptParameters {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

/**
 * N = 2^15, r = 8, p = 3: OWASP's recommended minimum for scrypt at 32 MiB of memory a hash
 * (the same work as N = 2^17, p = 1 at a quarter of the memory).
 */
export const CURRENT_SCRYPT: Readonly<ScryptParameters> = { ln: 15, r: 8, p: 3 };

const SALT_BYTES = 16;
const KEY_BYTES = 32;
/** Passwords longer than this are refused before hashing (bounded work per request). */
export const PASSWORD_MAX_LENGTH = 256;
export const PASSWORD_MIN_LENGTH = 10;

const ENCODED = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, params: ScryptParameters, length: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128 * N * r bytes (plus a little); allow twice that.
  const maxmem = 256 * N * params.r + 1024 * 1024;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, { N, r: params.r, p: params.p, maxmem }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

const b64 = (bytes: Buffer) => bytes.toString('base64').replace(/=+$/, '');

/** A fresh hash of `password` with a random salt and the current parameters. */
export async function hashPassword(
  password: string,
  params: ScryptParameters = CURRENT_SCRYPT,
  salt: Buffer = randomBytes(SALT_BYTES),
): Promise<string> {
  const key = await derive(password, salt, params, KEY_BYTES);
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(key)}`;
}

interface Decoded {
  params: ScryptParameters;
  salt: Buffer;
  key: Buffer;
}

function decode(encoded: string): Decoded | null {
  const match = ENCODED.exec(encoded);
  if (!match) return null;
  const params = { ln: Number(match[1]), r: Number(match[2]), p: Number(match[3]) };
  // Bounds: a stored hash never asks for more than 1 GiB or an absurd parallelism.
  if (params.ln < 1 || params.ln > 22 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return null;
  const salt = Buffer.from(match[4], 'base64');
  const key = Buffer.from(match[5], 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { params, salt, key };
}

/** Whether `password` matches the encoded hash; compared in constant time. A malformed hash matches nothing. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const decoded = decode(encoded);
  if (!decoded) return false;
  const key = await derive(password, decoded.salt, decoded.params, decoded.key.length);
  return timingSafeEqual(key, decoded.key);
}

/** Whether the hash was made with weaker parameters than `current` (or cannot be read). */
export function needsRehash(encoded: string, current: ScryptParameters = CURRENT_SCRYPT): boolean {
  const decoded = decode(encoded);
  if (!decoded) return true;
  const { ln, r, p } = decoded.params;
  return ln < current.ln || r < current.r || p < current.p;
}

/** What is wrong with a new password, or null: its length, or being the login itself. */
export function passwordProblem(password: string, login: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters long`;
  if (password.trim().toLowerCase() === login.toLowerCase()) return 'must not be the login';
  return null;
}
