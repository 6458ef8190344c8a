import { JwtService } from '@nestjs/jwt';
import type { EntityManager } from 'typeorm';
import type { Clock } from '../../common/clock';
import type { SessionsRepository } from './sessions.repository';

export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
export const SESSION_COOKIE = 'registry_session';

/**
 * The session cookie's attributes
 * (docs/decisions.md#forge-sign-in-sessions-and-the-install-wizard): HttpOnly, SameSite=Lax, Secure
 * on https.
 */
export function sessionCookieOptions(baseUrl: string) {
  return { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https:'), path: '/', maxAge: SESSION_LIFETIME_MS } as const;
}

export interface IssuedSession {
  token: string;
  sessionId: string;
  expiresAt: Date;
}

export interface SessionClaims {
  userId: string;
  sessionId: string;
}

/**
 * Session JWTs: HS256 pinned on both sides, 7 days, `jti` = the session row, so a logout
 * (a revoked row) is refused everywhere. Framework-light so the CLI issues sessions too.
 */
export class SessionTokens {
  private readonly jwt: JwtService;

  constructor(
    secret: string,
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {
    this.jwt = new JwtService({ secret, signOptions: { algorithm: 'HS256' }, verifyOptions: { algorithms: ['HS256'] } });
  }

  async issue(userId: string, manager?: EntityManager): Promise<IssuedSession> {
    const now = this.clock.nowMs();
    const expiresAt = new Date(now + SESSION_LIFETIME_MS);
    const session = await this.sessions.create(userId, expiresAt, manager);
    const token = await this.jwt.signAsync(
      { sub: userId, iat: Math.floor(now / 1000), exp: Math.floor(expiresAt.getTime() / 1000) },
      { jwtid: session.id },
    );
    return { token, sessionId: session.id, expiresAt };
  }

  /** The claims of a well-formed, HS256-signed, unexpired token; null otherwise. */
  async decode(token: string): Promise<SessionClaims | null> {
    try {
      const payload = await this.jwt.verifyAsync<{ sub?: unknown; jti?: unknown }>(token, {
        algorithms: ['HS256'],
        clockTimestamp: Math.floor(this.clock.nowMs() / 1000),
      });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string') return null;
      return { userId: payload.sub, sessionId: payload.jti };
    } catch {
      return null;
    }
  }
}
