import { open, seal } from '../../common/crypto/secret-box';
import type { RandomSource } from '../../common/clock';

/** The spec's auto-generated secret: 64 hex characters. */
export function generateWebhookSecret(random: RandomSource): string {
  return random.bytes(32).toString('hex');
}

/** Bound to the plugin, so a sealed secret cannot be moved to another plugin's row. */
const context = (pluginId: string) => `webhook-secret:${pluginId}`;

export function sealWebhookSecret(key: Buffer, pluginId: string, secret: string): Buffer {
  return seal(key, Buffer.from(secret, 'utf8'), context(pluginId));
}

export function openWebhookSecret(key: Buffer, pluginId: string, sealed: Buffer): string {
  return open(key, sealed, context(pluginId)).toString('utf8');
}
