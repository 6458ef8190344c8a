import { canonicalJson, CanonicalJsonError } from '../../lib/integrity';
import { nulCharacterPointers } from '../../lib/manifest';
import type { ProblemFieldError } from '../../common/errors/domain-error';

export const MAX_ATTESTATION_BYTES = 64 * 1024;
export const MAX_ATTESTATION_DEPTH = 32;

const POINTER = '/attestation';

function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Why an attestation bundle cannot be signed and stored, one item per problem (empty when it
 * can): bounded in size and nesting, no NUL (PostgreSQL cannot store it), and expressible as
 * RFC 8785 JSON, since every signed asset carries it.
 */
export function attestationProblems(attestation: unknown): ProblemFieldError[] {
  if (attestation === null || attestation === undefined) return [];
  const depth = depthOf(attestation, MAX_ATTESTATION_DEPTH);
  if (depth > MAX_ATTESTATION_DEPTH)
    return [{ path: POINTER, message: `attestation: must nest at most ${MAX_ATTESTATION_DEPTH} levels deep` }];
  const bytes = Buffer.byteLength(JSON.stringify(attestation), 'utf8');
  if (bytes > MAX_ATTESTATION_BYTES)
    return [{ path: POINTER, message: `attestation: must be at most ${MAX_ATTESTATION_BYTES} bytes as JSON (got ${bytes})` }];
  const nul = nulCharacterPointers(attestation, POINTER);
  if (nul.length > 0) return nul.map((path) => ({ path, message: `${path.slice(1)}: must not contain NUL (U+0000) characters` }));
  try {
    canonicalJson(attestation);
  } catch (error) {
    if (!(error instanceof CanonicalJsonError)) throw error;
    const path = `${POINTER}${error.pointer}`;
    return [{ path, message: `${path.slice(1)}: cannot be written as canonical JSON: ${error.reason}` }];
  }
  return [];
}
