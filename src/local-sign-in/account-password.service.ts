import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import type { SessionAuthContext } from '../auth/auth-context';
import { badRequest, DomainError } from '../common/errors/domain-error';
import { hashPassword, passwordProblem } from '../lib/password/password-hash';
import { SettingsService } from '../settings/settings.service';
import { LOCAL_INSTANCE } from '../users/users.repository';
import type { PasswordStatusDto, SetPasswordDto } from './dto/password.dto';
import { PasswordsRepository } from './passwords.repository';
import { passwordSignInOff } from './password-sign-in.service';

/**
 * A signed-in local account's password: whether it has one, setting or changing it, removing
 * it. The session is proof enough (as for adding a passkey): a person who came in through a
 * sign-in link after forgetting the old password sets a new one here.
 */
@Injectable()
export class AccountPasswordService {
  constructor(
    private readonly passwords: PasswordsRepository,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
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
    const hadOne = (await this.passwords.updatedAt(auth.user.id)) !== null;
    await this.passwords.store(auth.user.id, await hashPassword(body.password));
    await this.audit.record({ action: 'password.set', actor: { userId: auth.user.id }, details: { login: auth.user.login, changed: hadOne } });
    return this.status(auth);
  }

  async remove(auth: SessionAuthContext): Promise<void> {
    if (await this.passwords.remove(auth.user.id)) {
      await this.audit.record({ action: 'password.remove', actor: { userId: auth.user.id }, details: { login: auth.user.login } });
    }
  }
}
