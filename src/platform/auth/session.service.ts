import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { DomainError, unauthorized } from '../../common/errors/domain-error';
import type { AuthContext } from './auth-context';
import { bearerToken, cookieValue, PUBLISHER_TOKEN_PREFIX } from './auth-context';
import { SessionsRepository } from './sessions.repository';
import { SESSION_COOKIE, SessionTokens } from './session-tokens';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

@Injectable()
export class SessionService {
  constructor(
    private readonly tokens: SessionTokens,
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * The signed-in user behind the cookie or a bearer session JWT. A publisher token is never a
   * session; a revoked or expired session, or a disabled user, is refused.
   */
  async authenticate(request: Request): Promise<AuthContext & { kind: 'session' }> {
    const bearer = bearerToken(request);
    const cookie = cookieValue(request, SESSION_COOKIE);
    if (bearer?.startsWith(PUBLISHER_TOKEN_PREFIX)) throw unauthorized('a publisher token cannot be used here; sign in');
    const token = bearer ?? cookie;
    if (!token) throw unauthorized('sign in first');
    const claims = await this.tokens.decode(token);
    if (!claims) throw unauthorized('the session is invalid or expired');
    const session = await this.sessions.findWithUser(claims.sessionId);
    if (
      !session?.user ||
      session.userId !== claims.userId ||
      session.revokedAt ||
      session.expiresAt.getTime() <= this.clock.nowMs() ||
      session.user.disabledAt
    ) {
      throw unauthorized('the session is invalid or expired');
    }
    const via = bearer ? 'bearer' : 'cookie';
    // A browser sends cookies on cross-site form posts; it cannot send a JSON content type
    // there without a CORS preflight, which this service never grants.
    if (via === 'cookie' && !SAFE_METHODS.has(request.method) && !request.is('application/json')) {
      throw new DomainError('forbidden', 'csrf-check-failed', 'cookie-authenticated changes must send Content-Type: application/json');
    }
    const verifiedAt = session.verifiedAt && session.verifiedAt > session.createdAt ? session.verifiedAt : session.createdAt;
    return { kind: 'session', user: session.user, sessionId: session.id, via, verifiedAt };
  }

  async logout(sessionId: string): Promise<void> {
    await this.sessions.revoke(sessionId, this.clock.now());
  }

  /** Signs the user out everywhere but `keepSessionId` (their password changed); inside the caller's transaction when given. */
  async revokeOthers(userId: string, keepSessionId: string, manager?: EntityManager): Promise<void> {
    await this.sessions.revokeOthers(userId, keepSessionId, this.clock.now(), manager);
  }
}
