import semver from 'semver';
import {
  checkSignature,
  ED25519_SIGNATURE_LENGTH,
  headerProblem,
  KeyResolver,
  type KeySetSource,
  MalformedJwsError,
  parseCompactJws,
  type ParsedCompactJws,
} from '../integrity';
import { FRESHNESS_ERRORS, type FreshnessErrorCode } from './errors';
import {
  decodeFreshnessStatement,
  FRESHNESS_TYP,
  freshnessPlatformKey,
  type FreshnessPlatform,
  type FreshnessStatement,
  timestampMs,
} from './statement';

/** How far a statement's issued_at may lie ahead of the verifier's clock (clocks drift). */
export const DEFAULT_CLOCK_SKEW_SECONDS = 300;

/** What a client saw last time for the same registry, slug and platform. */
export interface FreshnessSeen {
  version: string;
  tree_size: number;
  issued_at: string;
}

export interface FreshnessExpectation {
  slug: string;
  /** The platform the answer names; unchecked when absent. A key (`linux-x64`, `universal`, `all`) or the statement form. */
  platform?: FreshnessPlatform | string;
}

export interface FreshnessFailure {
  ok: false;
  code: FreshnessErrorCode;
  message: string;
}

export type FreshnessResult = { ok: true; statement: FreshnessStatement; kid: string } | FreshnessFailure;

function refuse(code: FreshnessErrorCode, message: string): FreshnessFailure {
  return { ok: false, code, message };
}

/** The statement's own checks: slug, platform, lifetime. */
function timelinessProblem(
  statement: FreshnessStatement,
  expected: FreshnessExpectation,
  now: Date,
  skewSeconds: number,
): FreshnessFailure | undefined {
  if (statement.slug !== expected.slug) return refuse('SLUG_MISMATCH', `statement is for "${statement.slug}", not "${expected.slug}"`);
  if (expected.platform !== undefined) {
    const wanted = typeof expected.platform === 'string' ? expected.platform : freshnessPlatformKey(expected.platform);
    const signed = freshnessPlatformKey(statement.platform);
    if (signed !== wanted) return refuse('PLATFORM_MISMATCH', `statement is for platform ${signed}, not ${wanted}`);
  }
  const nowMs = now.getTime();
  if (timestampMs(statement.expires_at) <= nowMs) return refuse('EXPIRED', `statement expired at ${statement.expires_at}`);
  if (timestampMs(statement.issued_at) > nowMs + skewSeconds * 1000)
    return refuse('ISSUED_IN_FUTURE', `statement is issued at ${statement.issued_at}, ahead of this clock by more than ${skewSeconds} s`);
  return undefined;
}

/**
 * Rollback against what was seen before: the log never shrinks, statements are never issued
 * backwards, and a lower version is legitimate only after a yank, which is appended to the log, so
 * it comes with a larger tree.
 */
function rollbackProblem(statement: FreshnessStatement, seen: FreshnessSeen): FreshnessFailure | undefined {
  if (statement.tree_size < seen.tree_size)
    return refuse('TREE_SIZE_ROLLBACK', `statement names tree size ${statement.tree_size}, smaller than ${seen.tree_size} seen before`);
  if (timestampMs(statement.issued_at) < timestampMs(seen.issued_at))
    return refuse('ISSUED_AT_ROLLBACK', `statement was issued at ${statement.issued_at}, before ${seen.issued_at} seen before`);
  const lower = semver.valid(statement.version) && semver.valid(seen.version) ? semver.lt(statement.version, seen.version) : false;
  if (lower && statement.tree_size <= seen.tree_size) {
    return refuse(
      'VERSION_ROLLBACK',
      `statement names ${statement.version}, lower than ${seen.version} seen before, without the log growing (tree size ${statement.tree_size})`,
    );
  }
  return undefined;
}

/**
 * Verifies a `latest` answer's freshness statement: signature by a key of the registry's key set
 * (refreshed at most once, as for releases), `typ`, the statement's form, slug and platform,
 * expiry and issue time against `now`, and, given what was seen before, rollback. Every verdict is
 * a result; it throws only when the key-set fetcher fails.
 */
export async function verifyFreshness(
  jws: string,
  keys: KeySetSource,
  expected: FreshnessExpectation,
  now: Date,
  seen?: FreshnessSeen,
  options: { clockSkewSeconds?: number } = {},
): Promise<FreshnessResult> {
  if (typeof jws !== 'string' || jws === '') return refuse('MISSING', 'the answer carries no freshness statement');
  let parsed: ParsedCompactJws;
  try {
    parsed = parseCompactJws(jws);
  } catch (error) {
    if (error instanceof MalformedJwsError) return refuse('MALFORMED_JWS', error.message);
    throw error;
  }
  const header = headerProblem(parsed.header);
  if (header) return refuse(header.code as FreshnessErrorCode, header.message);
  if (parsed.header.typ !== FRESHNESS_TYP)
    return refuse('WRONG_TYPE', `typ ${JSON.stringify(parsed.header.typ ?? null)} is not ${FRESHNESS_TYP}`);
  if (parsed.signature.length !== ED25519_SIGNATURE_LENGTH)
    return refuse('MALFORMED_JWS', `signature is ${parsed.signature.length} bytes, Ed25519 signatures are ${ED25519_SIGNATURE_LENGTH}`);
  const kid = parsed.header.kid as string;
  const badSignature = await checkSignature(parsed, kid, new KeyResolver(keys));
  if (badSignature) return refuse(badSignature.code as FreshnessErrorCode, badSignature.message);
  const decoded = decodeFreshnessStatement(parsed.payloadBytes);
  if (!decoded.ok) return refuse('MALFORMED_STATEMENT', decoded.reason);
  const { statement } = decoded;
  const problem =
    timelinessProblem(statement, expected, now, options.clockSkewSeconds ?? DEFAULT_CLOCK_SKEW_SECONDS) ??
    (seen ? rollbackProblem(statement, seen) : undefined);
  return problem ?? { ok: true, statement, kid };
}

/** The meaning of a refusal, for a message. */
export function freshnessMeaning(code: FreshnessErrorCode): string {
  return FRESHNESS_ERRORS[code];
}
