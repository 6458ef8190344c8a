import type { KeyObject } from 'node:crypto';
import { base64urlDecode, canonicalJsonBytes, decodeCanonicalJson, signCompact } from '../integrity';

/** The JWS `typ` of a freshness statement: a release signature can never pass for one, nor the reverse. */
export const FRESHNESS_TYP = 'registry-freshness+jws';

/** A statement's bytes are small; anything larger is refused before it is parsed. */
const MAX_STATEMENT_BYTES = 4096;

/**
 * What a statement vouches for: the asset for one platform as the `latest` resolver chose it
 * (`{os, arch}`, or `"universal"` for the universal fallback), or `"all"` for the whole release
 * (`/releases/latest`, which names no asset).
 */
export type FreshnessPlatform = { os: string; arch: string } | 'universal' | 'all';

/** The signed document (its RFC 8785 bytes are the JWS payload). */
export interface FreshnessStatement {
  slug: string;
  version: string;
  platform: FreshnessPlatform;
  /** Hex SHA-256 of the chosen asset; null for `"all"` and for an asset over the hash budget. */
  asset_sha256: string | null;
  /** RFC 3339 UTC, whole seconds. */
  issued_at: string;
  expires_at: string;
  /**
   * The transparency log's size just after the last entry that changed this plugin's answers (its
   * latest release, yank, unyank or deletion): every entry behind the answer is inside it, and it
   * grows whenever the answer may legitimately step back.
   */
  tree_size: number;
}

/** One key per platform: `os-arch`, `universal` or `all` (the resolver's platform keys). */
export function freshnessPlatformKey(platform: FreshnessPlatform): string {
  return typeof platform === 'string' ? platform : `${platform.os}-${platform.arch}`;
}

/** RFC 3339 in UTC with whole seconds: `2026-11-28T03:00:00Z`. */
export function rfc3339Seconds(at: Date): string {
  return new Date(Math.floor(at.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The longest a statement is served before the next is issued: an hour, or half the lifetime when
 * that is shorter. Fixed rather than a fraction of the lifetime, so raising a lifetime of two
 * hours or more never moves `issued_at` back (below two hours the period is half the lifetime).
 */
export const FRESHNESS_REISSUE_MAX_SECONDS = 3600;

/** Seconds between issue times for a lifetime: at most an hour, at most half the lifetime, at least 1. */
export function freshnessReissueSeconds(lifetimeSeconds: number): number {
  return Math.max(1, Math.min(FRESHNESS_REISSUE_MAX_SECONDS, Math.floor(lifetimeSeconds / 2)));
}

/**
 * The issue and expiry times of a statement signed at `nowMs`: issued at the start of the current
 * reissue period (periods counted from the Unix epoch), expiring a lifetime later. Every instance
 * asked in the same period issues the same times, so with the same answer and Ed25519's
 * deterministic signatures they serve the same bytes, and none needs to store what it signed.
 */
export function freshnessPeriod(nowMs: number, lifetimeSeconds: number): { issuedAt: string; expiresAt: string } {
  const periodMs = freshnessReissueSeconds(lifetimeSeconds) * 1000;
  const issuedMs = Math.floor(nowMs / periodMs) * periodMs;
  return { issuedAt: rfc3339Seconds(new Date(issuedMs)), expiresAt: rfc3339Seconds(new Date(issuedMs + lifetimeSeconds * 1000)) };
}

/** Signs a statement as the registry signs releases (EdDSA, kid), with the freshness `typ`. */
export function signFreshnessStatement(statement: FreshnessStatement, privateKey: KeyObject, kid: string): string {
  if (kid === '') throw new TypeError('kid must not be empty');
  const problem = statementProblem(statement);
  if (problem) throw new TypeError(`cannot sign a freshness statement: ${problem}`);
  return signCompact({ alg: 'EdDSA', kid, typ: FRESHNESS_TYP }, canonicalJsonBytes(statement), privateKey);
}

const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const MEMBERS = ['asset_sha256', 'expires_at', 'issued_at', 'platform', 'slug', 'tree_size', 'version'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Milliseconds of an RFC 3339 UTC timestamp, or NaN. */
export function timestampMs(value: string): number {
  return RFC3339_UTC.test(value) ? Date.parse(value) : Number.NaN;
}

function platformProblem(platform: unknown): string | undefined {
  if (platform === 'universal' || platform === 'all') return undefined;
  if (!isRecord(platform)) return 'platform is not {os, arch}, "universal" or "all"';
  const keys = Object.keys(platform).sort();
  if (keys.length !== 2 || keys[0] !== 'arch' || keys[1] !== 'os') return 'platform has members other than os and arch';
  if (typeof platform.os !== 'string' || platform.os === '' || typeof platform.arch !== 'string' || platform.arch === '')
    return 'platform.os and platform.arch must be non-empty strings';
  return undefined;
}

function statementProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'statement is not a JSON object';
  const keys = Object.keys(value).sort();
  if (keys.join() !== MEMBERS.join()) return `statement members are ${keys.join(', ')}, expected ${MEMBERS.join(', ')}`;
  if (typeof value.slug !== 'string' || value.slug === '') return 'slug is not a non-empty string';
  if (typeof value.version !== 'string' || value.version === '') return 'version is not a non-empty string';
  const platform = platformProblem(value.platform);
  if (platform) return platform;
  if (value.asset_sha256 !== null && (typeof value.asset_sha256 !== 'string' || !SHA256_HEX.test(value.asset_sha256)))
    return 'asset_sha256 is neither null nor 64 lowercase hex digits';
  for (const member of ['issued_at', 'expires_at'] as const) {
    if (typeof value[member] !== 'string' || Number.isNaN(timestampMs(value[member]))) return `${member} is not an RFC 3339 UTC timestamp`;
  }
  if (timestampMs(value.expires_at as string) <= timestampMs(value.issued_at as string)) return 'expires_at is not after issued_at';
  if (typeof value.tree_size !== 'number' || !Number.isSafeInteger(value.tree_size) || value.tree_size < 0)
    return 'tree_size is not a non-negative integer';
  return undefined;
}

export type StatementDecoding = { ok: true; statement: FreshnessStatement } | { ok: false; reason: string };

/** Strict: bounded, UTF-8 JSON in RFC 8785 form, exactly the statement's members. */
export function decodeFreshnessStatement(bytes: Uint8Array): StatementDecoding {
  if (bytes.length > MAX_STATEMENT_BYTES) return { ok: false, reason: `statement is over ${MAX_STATEMENT_BYTES} bytes` };
  const decoded = decodeCanonicalJson(bytes, 'statement');
  if (!decoded.ok) return decoded;
  const value = decoded.value;
  const problem = statementProblem(value);
  return problem ? { ok: false, reason: problem } : { ok: true, statement: value as unknown as FreshnessStatement };
}

/**
 * Until when an answer carrying this statement may be replayed unchanged (by a response cache):
 * the end of its reissue period, when every instance issues the next one, so no cache serves a
 * statement older than one already served, nor an expired one. Reads the payload without
 * verifying it: for the registry's own statements only. Null when it is not a statement.
 */
export function statementReuseUntilMs(jws: string): number | null {
  const payload = jws.split('.')[1];
  const bytes = payload === undefined ? undefined : base64urlDecode(payload);
  if (!bytes) return null;
  const decoded = decodeFreshnessStatement(bytes);
  if (!decoded.ok) return null;
  const issued = timestampMs(decoded.statement.issued_at);
  return issued + freshnessReissueSeconds((timestampMs(decoded.statement.expires_at) - issued) / 1000) * 1000;
}
