import type { Request, Response } from 'express';
import type { StoredImage } from './images.repository';

/** A stored encoding never changes: its URL is the hash of its bytes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A proxied README image may change upstream; browsers and caches keep it as long as the proxy does. */
export const PROXIED = 'public, max-age=86400';

/**
 * Writes a picture: its type, a strong ETag (the SHA-256 of the bytes), nosniff, and a 304 when
 * the client holds it already (Express compares If-None-Match with the ETag set here).
 */
export function sendImage(request: Request, response: Response, image: StoredImage, cacheControl: string): void {
  response.setHeader('Content-Type', image.contentType);
  response.setHeader('Cache-Control', cacheControl);
  response.setHeader('ETag', `"${image.sha256}"`);
  response.setHeader('X-Content-Type-Options', 'nosniff');
  if (request.fresh) {
    response.status(304).end();
    return;
  }
  response.send(image.bytes);
}
