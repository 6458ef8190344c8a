import { verify as verifySignature, type KeyObject } from 'node:crypto';
import {
  decodeSignedPayload,
  ED25519_SIGNATURE_LENGTH,
  MalformedJwsError,
  parseCompactJws,
  publicKeyFromJwk,
  signCompact,
  type ParsedCompactJws,
  type PublicJwk,
} from '../../lib/integrity';

export type ResignOutcome = { ok: true; jws: string } | { ok: false; reason: string };

export interface ResignInput {
  /** The stored JWS compact serialization. */
  jws: string | null;
  /** The kid the release record names; the JWS header must name the same key. */
  kid: string;
  /** The public key of that kid (from its signing-key row, which outlives the key set). */
  oldKey: PublicJwk;
  /** The key to sign with now. */
  newKid: string;
  newPrivateKey: KeyObject;
}

function parse(jws: string): ParsedCompactJws | string {
  try {
    return parseCompactJws(jws);
  } catch (error) {
    if (error instanceof MalformedJwsError) return `malformed JWS: ${error.message}`;
    throw error;
  }
}

/**
 * A new signature over exactly the bytes the old one covered, or why not. The old JWS must be the
 * registry's own (header exactly `{alg: EdDSA, kid}` naming `kid`), its Ed25519 signature must
 * verify under `oldKey`, and its payload must decode as a signed payload: the registry never
 * re-signs bytes it cannot vouch for. The payload is not re-canonicalized or rebuilt; the decoded
 * payload segment is signed as is, under the header `{alg: EdDSA, kid: newKid}`.
 */
export function resignCompactJws(input: ResignInput): ResignOutcome {
  if (typeof input.jws !== 'string') return { ok: false, reason: 'the release has no JWS' };
  const parsed = parse(input.jws);
  if (typeof parsed === 'string') return { ok: false, reason: parsed };
  const members = Object.keys(parsed.header).sort();
  if (members.length !== 2 || members[0] !== 'alg' || members[1] !== 'kid' || parsed.header.alg !== 'EdDSA') {
    return { ok: false, reason: 'the protected header is not exactly {alg: EdDSA, kid}' };
  }
  if (parsed.header.kid !== input.kid) {
    return { ok: false, reason: `the JWS header names kid ${String(parsed.header.kid)}, the release record ${input.kid}` };
  }
  if (input.oldKey.kid !== input.kid) throw new TypeError(`the verification key is ${input.oldKey.kid}, not ${input.kid}`);
  if (parsed.signature.length !== ED25519_SIGNATURE_LENGTH) {
    return { ok: false, reason: `the signature is ${parsed.signature.length} bytes, not ${ED25519_SIGNATURE_LENGTH}` };
  }
  if (!verifySignature(null, parsed.signingInput, publicKeyFromJwk(input.oldKey), parsed.signature)) {
    return { ok: false, reason: `the Ed25519 signature does not verify under kid ${input.kid}` };
  }
  const decoded = decodeSignedPayload(parsed.payloadBytes);
  if (!decoded.ok) return { ok: false, reason: `the signed payload is malformed: ${decoded.reason}` };

  return { ok: true, jws: signCompact({ alg: 'EdDSA', kid: input.newKid }, parsed.payloadBytes, input.newPrivateKey) };
}
