import { createHmac } from 'node:crypto';
import { sameSecret } from '../../common/crypto/same-secret';
import type { WebhookHeaders } from './webhook.types';

/** A secret shorter than this is refused at verification, whatever the forge accepted (spec, Authentication 1). */
export const MIN_WEBHOOK_SECRET_LENGTH = 32;

export function header(headers: WebhookHeaders, name: string): string | null {
  const value = headers[name.toLowerCase()];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first !== '' ? first : null;
}

/** Whether `givenHex` is the HMAC-SHA256 of the exact raw body under `secret`. */
export function hmacMatches(secret: string, rawBody: Buffer, givenHex: string | null): boolean {
  if (givenHex === null || secret.length < MIN_WEBHOOK_SECRET_LENGTH) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest('hex');
  return sameSecret(givenHex.trim().toLowerCase(), expected);
}

/** Whether a shared-token header (GitLab's) carries the secret itself. */
export function tokenMatches(secret: string, given: string | null): boolean {
  if (given === null || secret.length < MIN_WEBHOOK_SECRET_LENGTH) return false;
  return sameSecret(given, secret);
}
