import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import { SessionTokens } from '../auth/session-tokens';
import { DomainError, gone } from '../common/errors/domain-error';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { SettingsRepository } from '../settings/settings.repository';
import { UsersRepository } from '../users/users.repository';
import { toUserDto } from '../users/users.mapper';
import type { SessionIssuedDto } from '../auth/dto/session-issued.dto';
import { BootstrapToken } from './bootstrap-token';
import type { CreateAdminDto, InitSettingsDto, InitSettingsResultDto, InitStatusDto } from './dto/init.dto';

const WIZARD_LOCK_KEY = 7_244_151_002;

/** The install wizard: open while no admin exists, closed for good (410) afterwards. */
@Injectable()
export class InitService implements OnApplicationBootstrap {
  private readonly logger = new Logger('InstallWizard');
  private readonly token: BootstrapToken;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionTokens,
    private readonly settings: SettingsRepository,
    private readonly audit: AuditService,
  ) {
    this.token = new BootstrapToken(config.initToken);
  }

  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.anyAdmin()) {
      this.token.retire();
      return;
    }
    // Logged once, deliberately: the operator needs it to open the wizard.
    this.logger.warn(`no admin yet: open the install wizard with bootstrap token ${this.token.value}`);
  }

  async status(): Promise<InitStatusDto> {
    return { initialized: await this.users.anyAdmin() };
  }

  /** Closed (410) takes precedence over a wrong token (401): once set up, nothing here works. */
  private async assertOpen(bearer: string | null): Promise<void> {
    if (await this.users.anyAdmin()) {
      this.token.retire();
      throw gone('the registry is already set up; the install wizard is closed');
    }
    if (!this.token.matches(bearer)) throw new DomainError('unauthorized', 'bad-bootstrap-token', 'the bootstrap token is missing or wrong');
  }

  async createAdmin(bearer: string | null, input: CreateAdminDto, ip: string | null): Promise<SessionIssuedDto> {
    await this.assertOpen(bearer);
    const result = await this.dataSource.transaction(async (manager) => {
      // Two wizard submissions at once: the lock makes the second see the first admin.
      await manager.query('SELECT pg_advisory_xact_lock($1)', [WIZARD_LOCK_KEY]);
      if (await this.users.anyAdmin(manager)) throw gone('the registry is already set up; the install wizard is closed');
      const user = await this.users.createLocal({ login: input.login, email: input.email ?? null, role: 'admin' }, manager);
      await this.audit.record({ action: 'user.create', actor: { userId: null, ip }, details: { userId: user.id, login: user.login, role: 'admin', via: 'install-wizard' } }, manager);
      const session = await this.sessions.issue(user.id, manager);
      return { token: session.token, user: toUserDto(user) };
    });
    this.token.retire();
    return result;
  }

  async putSettings(bearer: string | null, input: InitSettingsDto): Promise<InitSettingsResultDto> {
    await this.assertOpen(bearer);
    if (input.siteName !== undefined) await this.settings.set('site.name', input.siteName);
    if (input.baseUrl !== undefined) await this.settings.set('site.base_url', input.baseUrl.replace(/\/+$/, ''));
    return {
      siteName: (await this.settings.get<string>('site.name')) ?? null,
      baseUrl: (await this.settings.get<string>('site.base_url')) ?? null,
    };
  }
}
