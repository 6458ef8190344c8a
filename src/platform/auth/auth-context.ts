import type { Request } from 'express';
import { requestCookies } from '../../common/http/cookies';
import type { UserEntity } from '../users/entities/user.entity';
import { SESSION_COOKIE } from './session-tokens';

/** A signed-in user, by session cookie or bearer session JWT. */
export interface SessionAuthContext {
  kind: 'session';
  user: UserEntity;
  sessionId: string;
  via: 'cookie' | 'bearer';
  /** When its holder last proved it was them: the sign-in, or a later step-up; absent, it counts as long ago. */
  verifiedAt?: Date;
}

/**
 * A publisher token's holder. The token's row belongs to the tokens feature, which stands above
 * auth, so only its id is named here; tokens' PublisherTokenContext carries the whole row.
 */
export interface TokenAuthContext {
  kind: 'token';
  user: UserEntity;
  token: { readonly id: string };
}

/** Who made the request, as a guard established it. */
export type AuthContext = SessionAuthContext | TokenAuthContext;

export interface AuthenticatedRequest extends Request {
  auth?: AuthContext;
}

export const PUBLISHER_TOKEN_PREFIX = 'prt_';

/** The bearer credential, if any. */
export function bearerToken(request: Request): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

/** A cookie's value as the session guard, the response cache and the web pages all read it (parsed once per request). */
export function cookieValue(request: Pick<Request, 'headers'>, name: string): string | null {
  return requestCookies(request).get(name) ?? null;
}

/**
 * Whether the request brings something that may sign it in: any Authorization header, or a
 * session cookie in any spelling the session guard reads (valid or not). Such a request may be
 * answered differently from the public, so a shared cache neither answers nor stores it.
 */
export function carriesCredentials(request: Pick<Request, 'headers'>): boolean {
  return request.headers.authorization !== undefined || requestCookies(request).has(SESSION_COOKIE);
}

export function clientIp(request: Request): string | null {
  return request.ip ?? request.socket?.remoteAddress ?? null;
}
