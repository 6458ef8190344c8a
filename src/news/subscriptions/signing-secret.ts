import { createHmac } from 'node:crypto';
import type { RandomSource } from '../../common/clock';
import { open, seal } from '../../common/crypto/secret-box';

export const SECRET_PREFIX = 'whsec_';

/** A Standard Webhooks secret: `whsec_` and the base64 of 32 random bytes. */
export function generateSigningSecret(random: RandomSource): string {
  return `${SECRET_PREFIX}${random.bytes(32).toString('base64')}`;
}

/** Bound to the subscription, so a sealed secret cannot be moved to another row. */
const context = (subscriptionId: string) => `subscription-secret:${subscriptionId}`;

export function sealSigningSecret(key: Buffer, subscriptionId: string, secret: string): Buffer {
  return seal(key, Buffer.from(secret, 'utf8'), context(subscriptionId));
}

export function openSigningSecret(key: Buffer, subscriptionId: string, sealed: Buffer): string {
  return open(key, sealed, context(subscriptionId)).toString('utf8');
}

/**
 * The `webhook-signature` header of Standard Webhooks: `v1,` and the base64 HMAC-SHA256, keyed
 * with the secret's decoded bytes, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signPayload(secret: string, id: string, timestampS: number, body: Buffer): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampS}.`).update(body).digest('base64');
  return `v1,${mac}`;
}
