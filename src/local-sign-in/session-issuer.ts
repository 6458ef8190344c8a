import { Inject, Injectable } from '@nestjs/common';
import type { Response } from 'express';
import { AuditService } from '../audit/audit.service';
import { SESSION_COOKIE, SessionTokens, sessionCookieOptions } from '../auth/session-tokens';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import type { UserEntity } from '../users/entities/user.entity';
import { toUserDto } from '../users/users.mapper';
import type { SessionIssuedDto } from '../auth/dto/session-issued.dto';

export type SignInMethod = 'password' | 'passkey' | 'link';

/** Signs a user in as OAuth sign-in does: a session row, its JWT in the session cookie, an audit entry. */
@Injectable()
export class SessionIssuer {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tokens: SessionTokens,
    private readonly audit: AuditService,
  ) {}

  async signIn(user: UserEntity, method: SignInMethod, ip: string | null, response: Response): Promise<SessionIssuedDto> {
    const session = await this.tokens.issue(user.id);
    await this.audit.record({ action: 'user.sign_in', actor: { userId: user.id, ip }, details: { method, login: user.login, instance: user.instance } });
    response.cookie(SESSION_COOKIE, session.token, sessionCookieOptions(this.config.baseUrl));
    response.setHeader('Cache-Control', 'no-store');
    return { token: session.token, user: toUserDto(user) };
  }

  /** A failed attempt, for the audit log: what was tried, never a secret. */
  async failed(method: SignInMethod, ip: string | null, details: Record<string, unknown>): Promise<void> {
    await this.audit.record({ action: 'user.sign_in_failed', actor: { ip }, details: { method, ...details } });
  }
}
