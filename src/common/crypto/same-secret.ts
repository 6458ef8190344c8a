import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether a presented secret equals the expected one, in constant time: both sides are hashed first, so not even their lengths leak. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given === expected;
}
