import OAuth2Strategy from 'passport-oauth2';
import { DomainError, upstreamFailed } from '../../../common/errors/domain-error';

/**
 * A failure of this registry (its database), not of the forge or of the person signing in; the
 * sign-in service lets `cause` through as an internal error instead of blaming the forge.
 */
export class LocalSignInFailure extends Error {
  constructor(cause: unknown) {
    super('sign-in failed inside the registry', { cause });
    this.name = 'LocalSignInFailure';
  }
}

/**
 * Token-endpoint error codes that mean the authorization code the browser brought is no good:
 * used before, expired or never issued. GitHub names it `bad_verification_code`.
 */
const CODE_REJECTED = new Set(['invalid_grant', 'bad_verification_code']);

/** Reads an RFC 6749 5.2 error answer, keeping the HTTP status passport-oauth2 would drop. */
export function tokenErrorFromAnswer(body: unknown, status: number): OAuth2Strategy.TokenError | null {
  let json: unknown;
  try {
    json = JSON.parse(String(body));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const { error, error_description: description } = json as Record<string, unknown>;
  if (typeof error !== 'string' || error.length === 0) return null;
  return new OAuth2Strategy.TokenError(typeof description === 'string' ? description : undefined, error, undefined, status);
}

type TokenCallback = (error: unknown, accessToken?: string, refreshToken?: string, results?: Record<string, unknown>) => void;

/**
 * Makes a strategy report the forge's OAuth error answers as TokenErrors carrying the HTTP status,
 * including GitHub's, which refuses a code with HTTP 200 and an `error` field.
 */
export function withForgeTokenErrors<T extends OAuth2Strategy>(strategy: T): T {
  strategy.parseErrorResponse = tokenErrorFromAnswer;
  const oauth2 = (strategy as unknown as { _oauth2: { getOAuthAccessToken(code: string, params: unknown, callback: TokenCallback): void } })
    ._oauth2;
  const exchange = oauth2.getOAuthAccessToken.bind(oauth2);
  oauth2.getOAuthAccessToken = (code, params, callback) =>
    exchange(code, params, (error, accessToken, refreshToken, results) => {
      if (!error && !accessToken && typeof results?.error === 'string') {
        callback({ statusCode: 200, data: JSON.stringify(results) });
        return;
      }
      callback(error, accessToken, refreshToken, results);
    });
  return strategy;
}

/** What went wrong, in words safe for a log line: error codes and statuses, never a body. */
function describe(error: unknown): string {
  if (error instanceof OAuth2Strategy.TokenError) return `the token endpoint answered HTTP ${error.status} "${error.code}"`;
  if (error instanceof OAuth2Strategy.InternalOAuthError) {
    const cause = error.oauthError as { statusCode?: number; code?: string } | undefined;
    const detail = cause?.statusCode ? `HTTP ${cause.statusCode}` : (cause?.code ?? 'no answer');
    return `${error.message} (${detail})`;
  }
  return error instanceof Error ? error.message : 'unknown failure';
}

/**
 * Sorts a failed sign-in by whose fault it is: the person signing in (a used, expired or unknown
 * code, or a denial at the forge: 401), this registry (its database: the original error, a 500),
 * or the forge (unreachable, a 5xx, or refusing this registry's own OAuth app: 502).
 */
export function signInFailure(instance: string, error: unknown, log: (line: string) => void): Error {
  if (error instanceof DomainError) return error;
  if (error instanceof LocalSignInFailure) return error.cause instanceof Error ? error.cause : error;
  if (error instanceof OAuth2Strategy.TokenError && error.status < 500 && CODE_REJECTED.has(error.code)) {
    return new DomainError(
      'unauthorized',
      'oauth-code-rejected',
      'the forge did not accept this sign-in code (already used, expired or unknown); start again',
    );
  }
  if (error instanceof OAuth2Strategy.AuthorizationError) {
    return new DomainError('unauthorized', 'oauth-refused', 'the forge did not authorize this sign-in; start again');
  }
  log(`signing in with ${instance} failed at the forge: ${describe(error)}`);
  return upstreamFailed('oauth-failed', `signing in with ${instance} failed at the forge`);
}
