import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Where README images are served from: `/image-proxy?url=<upstream>&sig=<hex HMAC>`. */
export const IMAGE_PROXY_PATH = '/image-proxy';

const INFO = 'plugin-registry image-proxy v1';

/**
 * The proxy's HMAC key, derived (HKDF-SHA256) from KEY_ENCRYPTION_KEY: every instance of one
 * registry derives the same key, so a README rendered on one is served by any; no new secret to
 * configure. The derived key reveals nothing of the key-encryption key.
 */
export function imageProxyKey(keyEncryptionKey: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', keyEncryptionKey, Buffer.alloc(0), INFO, 32));
}

/** Hex HMAC-SHA256 of the URL exactly as it will appear in the `url` parameter. */
export function signImageUrl(key: Buffer, url: string): string {
  return createHmac('sha256', key).update(url, 'utf8').digest('hex');
}

/** Whether `sig` is the URL's signature, compared in constant time (a malformed one is simply wrong). */
export function isSignedImageUrl(key: Buffer, url: string, sig: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(sig)) return false;
  return timingSafeEqual(Buffer.from(signImageUrl(key, url), 'hex'), Buffer.from(sig, 'hex'));
}

/** The same-origin address a README's absolute http(s) image is shown through. */
export function proxiedImageSrc(key: Buffer, url: string): string {
  return `${IMAGE_PROXY_PATH}?url=${encodeURIComponent(url)}&sig=${signImageUrl(key, url)}`;
}
