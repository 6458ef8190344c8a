import { open, seal } from '../../common/crypto/secret-box';

/** Bound as additional data, so a sealed secret cannot be moved to another instance's row. */
function context(name: string): string {
  return `forge-client-secret:${name}`;
}

/** The client secret sealed with KEY_ENCRYPTION_KEY (AES-256-GCM), as signing keys and provider tokens are. */
export function sealClientSecret(key: Buffer, name: string, secret: string): Buffer {
  return seal(key, Buffer.from(secret, 'utf8'), context(name));
}

export function openClientSecret(key: Buffer, name: string, sealed: Buffer): string {
  return open(key, sealed, context(name)).toString('utf8');
}
