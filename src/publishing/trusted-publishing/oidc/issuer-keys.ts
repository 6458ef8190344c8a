import { Injectable } from '@nestjs/common';
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWSHeaderParameters, type FlattenedJWSInput, type KeyLike } from 'jose';
import { Clock } from '../../../common/clock';
import { DomainError } from '../../../common/errors/domain-error';
import { AssetFetchError, fetchText } from '../../../common/fetch';
import { FetchPolicy } from '../../../platform/fetch-policy/fetch-policy';
import { invalidIdToken, issuerUnreachable } from './oidc-error';

/** How long a key set is used before it is read again. */
export const KEY_SET_TTL_MS = 10 * 60_000;
/** An unknown `kid` refreshes the key set at most this often per issuer, so bogus tokens cannot make us hammer the issuer. */
export const UNKNOWN_KID_REFRESH_MS = 30_000;
const MAX_DOCUMENT_BYTES = 256 * 1024;

interface CachedKeys {
  resolve: ReturnType<typeof createLocalJWKSet>;
  fetchedAtMs: number;
}

/** Refusals by the fetch policy say the issuer's keys must not be trusted; the rest may pass on a retry. */
const REFUSED = new Set(['bad-url', 'refused-scheme', 'refused-address', 'too-large', 'too-many-redirects']);

/**
 * Each configured issuer's signing keys: discovered from `/.well-known/openid-configuration`, read
 * from its `jwks_uri` through the SSRF-safe fetcher (FETCH_ALLOW_HOSTS honoured), cached, and read
 * again when a token names a key the cached set lacks (the issuer rotated).
 */
@Injectable()
export class IssuerKeys {
  private readonly cache = new Map<string, CachedKeys>();
  private readonly loading = new Map<string, Promise<CachedKeys>>();

  constructor(
    private readonly policy: FetchPolicy,
    private readonly clock: Clock,
  ) {}

  /** The key that verifies a token of `issuer` with this protected header. */
  async key(issuer: string, header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<KeyLike> {
    const nowMs = this.clock.nowMs();
    let cached = this.cache.get(issuer);
    if (!cached) cached = await this.load(issuer);
    else if (nowMs - cached.fetchedAtMs >= KEY_SET_TTL_MS)
      cached = await this.load(issuer).catch((error) => this.staleOnOutage(error, cached!));
    try {
      return await cached.resolve(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || nowMs - cached.fetchedAtMs < UNKNOWN_KID_REFRESH_MS) throw this.keyError(error);
    }
    const fresh = await this.load(issuer);
    try {
      return await fresh.resolve(header, token);
    } catch (error) {
      throw this.keyError(error);
    }
  }

  /**
   * An issuer that cannot be reached for a while keeps its last key set (its tokens are signed
   * with keys it published); one whose documents now fail the policy or the format does not.
   */
  private staleOnOutage(error: unknown, stale: CachedKeys): CachedKeys {
    if (error instanceof DomainError && error.kind === 'upstream-failed') return stale;
    throw error;
  }

  private keyError(error: unknown): Error {
    if (error instanceof errors.JWKSNoMatchingKey) return invalidIdToken("the ID token's key (kid) is not in its issuer's key set");
    if (error instanceof errors.JWKSMultipleMatchingKeys)
      return invalidIdToken("the ID token's header matches several keys of its issuer; it must name one by kid");
    return error instanceof Error ? error : new Error(String(error));
  }

  /** One read at a time per issuer: concurrent tokens share it. */
  private load(issuer: string): Promise<CachedKeys> {
    const running = this.loading.get(issuer);
    if (running) return running;
    const work = this.read(issuer).finally(() => this.loading.delete(issuer));
    this.loading.set(issuer, work);
    return work;
  }

  private async read(issuer: string): Promise<CachedKeys> {
    const discovery = await this.json(`${issuer}/.well-known/openid-configuration`, issuer);
    const document = discovery as { issuer?: unknown; jwks_uri?: unknown };
    if (document.issuer !== issuer) throw invalidIdToken(`the discovery document of ${issuer} names another issuer`);
    if (typeof document.jwks_uri !== 'string') throw invalidIdToken(`the discovery document of ${issuer} has no jwks_uri`);
    const keySet = (await this.json(document.jwks_uri, issuer)) as JSONWebKeySet;
    let resolve: CachedKeys['resolve'];
    try {
      resolve = createLocalJWKSet(keySet);
    } catch {
      throw invalidIdToken(`the key set of ${issuer} is not a JWKS`);
    }
    const cached = { resolve, fetchedAtMs: this.clock.nowMs() };
    this.cache.set(issuer, cached);
    return cached;
  }

  private async json(url: string, issuer: string): Promise<unknown> {
    let text: string;
    try {
      text = (await fetchText(url, { ...this.policy.text(), maxBytes: MAX_DOCUMENT_BYTES, headers: { Accept: 'application/json' } })).text;
    } catch (error) {
      if (!(error instanceof AssetFetchError)) throw error;
      const detail = `the keys of the issuer ${issuer} could not be read: ${error.message}`;
      throw REFUSED.has(error.reason) ? invalidIdToken(detail) : issuerUnreachable(detail);
    }
    try {
      return JSON.parse(text);
    } catch {
      throw invalidIdToken(`the issuer ${issuer} answered ${url} with something that is not JSON`);
    }
  }
}
