import { createHash } from 'node:crypto';
import type { RandomSource } from '../../common/clock';
import { PUBLISHER_TOKEN_PREFIX } from '../../platform/auth/auth-context';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_CHARACTERS = 40;
export const TOKEN_DISPLAY_PREFIX_LENGTH = 12;
export const PUBLISHER_TOKEN_PATTERN = /^prt_[0-9A-Za-z]{40}$/;

/** `prt_` + 40 base62 characters, drawn without modulo bias (bytes ≥ 248 are skipped). */
export function generatePublisherToken(random: RandomSource): string {
  let out = '';
  while (out.length < RANDOM_CHARACTERS) {
    for (const byte of random.bytes(64)) {
      if (byte < 248 && out.length < RANDOM_CHARACTERS) out += BASE62[byte % 62];
    }
  }
  return PUBLISHER_TOKEN_PREFIX + out;
}

export function hashPublisherToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
