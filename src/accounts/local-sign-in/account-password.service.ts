import { Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import type { SessionAuthContext } from '../../platform/auth/auth-context';
import { SessionService } from '../../platform/auth/session.service';
import { StepUp, stepUpRequired } from '../../platform/auth/step-up';
import { badRequest, DomainError } from '../../common/errors/domain-error';
import { passwordProblem } from '../../lib/password/password-hash';
import { SettingsService } from '../../platform/settings/settings.service';
import { LOCAL_INSTANCE } from '../../platform/users/users.repository';
import { CurrentPassword } from './current-password';
import type { PasswordStatusDto, SetPasswordDto } from './dto/password.dto';
import { PasswordHasher } from './password-hasher';
import { PasswordsRepository } from './passwords.repository';
import { passwordSignInOff } from './password-sign-in.service';

/**
 * A signed-in local account's password: whether it has one, setting or changing it, removing
 * it. Each change passes the step-up rule (a session signed in or stepped up in the last 10
 * minutes); a change of an existing password may instead give the current one with the request.
 * Setting, changing or removing it signs the account out everywhere else.
 */
@Injectable()
export class AccountPasswordService {
  constructor(
    private readonly passwords: PasswordsRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly sessions: SessionService,
    private readonly current: CurrentPassword,
    private readonly hasher: PasswordHasher,
    private readonly stepUp: StepUp,
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

  async set(auth: SessionAuthContext, body: SetPasswordDto, ip: string | null): Promise<PasswordStatusDto> {
    if ((await this.settings.get('signin.password_enabled')) !== 1) throw passwordSignInOff();
    if (auth.user.instance !== LOCAL_INSTANCE) {
      throw new DomainError(
        'conflict',
        'password-not-local',
        `passwords are for local accounts; you sign in through ${auth.user.instance} (a passkey works for any account)`,
      );
    }
    const problem = passwordProblem(body.password, auth.user.login);
    if (problem) throw badRequest('validation-failed', `password: ${problem}`, [{ path: '/password', message: problem }]);
    const fresh = this.stepUp.isFresh(auth);
    if (!fresh && body.currentPassword === undefined) throw stepUpRequired();
    // Limits and the lock first: a refused change hashes nothing.
    await this.current.admit(auth.user.id, ip);
    const current = await this.passwords.hashOf(auth.user.id);
    const hash = await this.hasher.withSlot(async (slot) => {
      if (!fresh) await this.current.verify(slot, auth.user.id, current, body.currentPassword!);
      return slot.hash(body.password);
    });
    await this.passwords.transaction(async (manager) => {
      await this.passwords.store(auth.user.id, hash, manager);
      await this.sessions.revokeOthers(auth.user.id, auth.sessionId, manager);
    });
    await this.audit.record({
      action: 'password.set',
      actor: { userId: auth.user.id },
      details: { login: auth.user.login, changed: current !== null },
    });
    return this.status(auth);
  }

  async remove(auth: SessionAuthContext): Promise<void> {
    this.stepUp.require(auth);
    const removed = await this.passwords.transaction(async (manager) => {
      const had = await this.passwords.remove(auth.user.id, manager);
      if (had) await this.sessions.revokeOthers(auth.user.id, auth.sessionId, manager);
      return had;
    });
    if (removed)
      await this.audit.record({ action: 'password.remove', actor: { userId: auth.user.id }, details: { login: auth.user.login } });
  }
}
