import { open, seal } from '../../common/crypto/secret-box';

/** The additional data a provider token is sealed with, so a sealed token cannot move to another user. */
function context(instance: string, providerUserId: string): string {
  return `provider-token:${instance}:${providerUserId}`;
}

export function sealProviderToken(key: Buffer, instance: string, providerUserId: string, accessToken: string): Buffer {
  return seal(key, Buffer.from(accessToken), context(instance, providerUserId));
}

export function openProviderToken(key: Buffer, instance: string, providerUserId: string, sealed: Buffer): string {
  return open(key, sealed, context(instance, providerUserId)).toString('utf8');
}
