import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { SessionAuthContext } from '../auth/auth-context';
import { SessionService } from '../auth/session.service';
import { Clock } from '../common/clock';
import { badRequest, DomainError } from '../common/errors/domain-error';
import { hashPassword, passwordProblem, verifyPassword } from '../lib/password/password-hash';
import { SettingsService } from '../settings/settings.service';
import { LOCAL_INSTANCE } from '../users/users.repository';
import type { PasswordStatusDto, SetPasswordDto } from './dto/password.dto';
import { PasswordsRepository } from './passwords.repository';
import { passwordSignInOff } from './password-sign-in.service';
import { SignInAttempts } from './sign-in-attempts';

/** How long after signing in a session may change a password without giving the current one. */
export const FRESH_SESSION_MS = 10 * 60_000;

const currentPasswordRequired = () =>
  new DomainError('forbidden', 'current-password-required', 'give your current password to change it (or sign in again, with a passkey or a sign-in link, and change it within 10 minutes)');

/**
 * A signed-in local account's password: whether it has one, setting or changing it, removing
 * it. Setting the first one needs only the session; changing one needs the current password, or
 * a session signed in less than 10 minutes ago (a person who forgot it came in through a sign-in
 * link). Setting, changing or removing it signs the account out everywhere else.
 */
@Injectable()
export class AccountPasswordService {
  constructor(
    private readonly passwords: PasswordsRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly sessions: SessionService,
    private readonly attempts: SignInAttempts,
    private readonly clock: Clock,
  ) {}

  async status(auth: SessionAuthContext): Promise<PasswordStatusDto> {
    const updatedAt = await this.passwords.updatedAt(auth.user.id);
    return {
      enabled: (await this.settings.get('signin.password_enabled')) === 1,
      available: auth.user.instance === LOCAL_INSTANCE,
      set: updatedAt !== null,
      updatedAt: updatedAt ? updatedAt.getTime() : null,
    };
  }

  async set(auth: SessionAuthContext, body: SetPasswordDto): Promise<PasswordStatusDto> {
    if ((await this.settings.get('signin.password_enabled')) !== 1) throw passwordSignInOff();
    if (auth.user.instance !== LOCAL_INSTANCE) {
      throw new DomainError('conflict', 'password-not-local', `passwords are for local accounts; you sign in through ${auth.user.instance} (a passkey works for any account)`);
    }
    const problem = passwordProblem(body.password, auth.user.login);
    if (problem) throw badRequest('validation-failed', `password: ${problem}`, [{ path: '/password', message: problem }]);
    const current = await this.passwords.hashOf(auth.user.id);
    if (current !== null) await this.requireCurrent(auth, current, body.currentPassword);
    const hash = await hashPassword(body.password);
    await this.passwords.transaction(async (manager) => {
      await this.passwords.store(auth.user.id, hash, manager);
      await this.sessions.revokeOthers(auth.user.id, auth.sessionId, manager);
    });
    await this.audit.record({ action: 'password.set', actor: { userId: auth.user.id }, details: { login: auth.user.login, changed: current !== null } });
    return this.status(auth);
  }

  async remove(auth: SessionAuthContext): Promise<void> {
    const removed = await this.passwords.transaction(async (manager) => {
      const had = await this.passwords.remove(auth.user.id, manager);
      if (had) await this.sessions.revokeOthers(auth.user.id, auth.sessionId, manager);
      return had;
    });
    if (removed) await this.audit.record({ action: 'password.remove', actor: { userId: auth.user.id }, details: { login: auth.user.login } });
  }

  /** A change of an existing password: a fresh session, or the current password (wrong ones count as failed sign-ins). */
  private async requireCurrent(auth: SessionAuthContext, hash: string, given: string | undefined): Promise<void> {
    if (auth.signedInAt && this.clock.nowMs() - auth.signedInAt.getTime() < FRESH_SESSION_MS) return;
    if (!given) throw currentPasswordRequired();
    const entry = await this.attempts.enterAccount(auth.user.id);
    const matches = await verifyPassword(given, hash);
    if (entry.locked || !matches) throw new DomainError('forbidden', 'current-password-wrong', 'the current password is wrong (or there were too many wrong ones; try again later)');
    await entry.succeeded();
  }
}
