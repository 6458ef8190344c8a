import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import { SESSION_COOKIE, SessionTokens, sessionCookieOptions } from '../../platform/auth/session-tokens';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import type { UserEntity } from '../../platform/users/entities/user.entity';
import { toUserDto } from '../../platform/users/users.mapper';
import type { SignedIn } from './sign-in-http';

export type SignInMethod = 'password' | 'passkey' | 'link';

/** Signs a user in as OAuth sign-in does: a session row, its JWT in the session cookie, an audit entry. */
@Injectable()
export class SessionIssuer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: SessionTokens,
    private readonly audit: AuditService,
  ) {}

  /** A new session for the user: the answer's body and the cookie to set (sign-in-http.ts writes them). */
  async signIn(user: UserEntity, method: SignInMethod, ip: string | null): Promise<SignedIn> {
    const session = await this.tokens.issue(user.id);
    await this.audit.record({
      action: 'user.sign_in',
      actor: { userId: user.id, ip },
      details: { method, login: user.login, instance: user.instance },
    });
    return {
      body: { token: session.token, user: toUserDto(user) },
      cookie: { name: SESSION_COOKIE, value: session.token, options: sessionCookieOptions(this.config.baseUrl) },
    };
  }

  /** A failed attempt, for the audit log: what was tried, never a secret. */
  async failed(method: SignInMethod, ip: string | null, details: Record<string, unknown>): Promise<void> {
    await this.audit.record({ action: 'user.sign_in_failed', actor: { ip }, details: { method, ...details } });
  }
}
