/**
 * Strict base64url (RFC 4648 section 5, no padding), as JWS requires (RFC 7515 section 2).
 * Buffer's own decoder is lenient (skips stray characters, accepts padding and non-zero trailing
 * bits), which would let several different strings name the same bytes; verification must not.
 */

const BASE64URL_ALPHABET = /^[A-Za-z0-9_-]*$/;

export function base64urlEncode(bytes: Uint8Array | string): string {
  return Buffer.from(bytes).toString('base64url');
}

/** Decodes canonical unpadded base64url; returns undefined for anything else. */
export function base64urlDecode(text: string): Uint8Array | undefined {
  if (!BASE64URL_ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  // Re-encoding catches non-zero padding bits, the one leniency the alphabet check cannot see.
  if (bytes.toString('base64url') !== text) return undefined;
  return new Uint8Array(bytes);
}
