import { createHash } from 'node:crypto';
import { DomainError } from '../../common/errors/domain-error';

/** How long a WebAuthn ceremony may take (the browser's prompt included). */
export const CEREMONY_TIMEOUT_MS = 5 * 60 * 1000;

/** The WebAuthn relying party: this registry, named by its public BASE_URL (rp id = its host name). */
export interface RelyingParty {
  id: string;
  origin: string;
}

export function relyingParty(baseUrl: string): RelyingParty {
  const url = new URL(baseUrl);
  return { id: url.hostname, origin: url.origin };
}

export const passkeyRejected = (detail = 'the passkey was not accepted; try again, or sign in another way') =>
  new DomainError('unauthorized', 'passkey-rejected', detail);

export function challengeSha256(challenge: string): Buffer {
  return createHash('sha256').update(challenge).digest();
}

/** The WebAuthn user handle for a user: the 16 bytes of its uuid. */
export function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

/**
 * The challenge a browser's answer claims to answer, read from its clientDataJSON (checked for
 * real by the library afterwards); null when the answer is not shaped like one.
 */
export function answeredChallenge(answer: Record<string, unknown>): string | null {
  const inner = answer.response;
  if (typeof answer.id !== 'string' || answer.id.length > 1400 || !inner || typeof inner !== 'object') return null;
  const clientData = (inner as Record<string, unknown>).clientDataJSON;
  if (typeof clientData !== 'string' || clientData.length > 8192) return null;
  try {
    const parsed = JSON.parse(Buffer.from(clientData, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 200 ? parsed.challenge : null;
  } catch {
    return null;
  }
}
