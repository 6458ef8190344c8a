import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import type { Response } from 'express';
import { SESSION_COOKIE, SessionTokens, sessionCookieOptions } from '../../platform/auth/session-tokens';
import { DomainError, gone } from '../../common/errors/domain-error';
import { type CheckedForge, ForgeAdminService } from '../forge-admin/forge-admin.service';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { SettingsService } from '../../platform/settings/settings.service';
import { UsersRepository } from '../../platform/users/users.repository';
import { toUserDto } from '../../platform/users/users.mapper';
import type { SessionIssuedDto } from '../../platform/auth/dto/session-issued.dto';
import { BootstrapToken } from './bootstrap-token';
import { WIZARD_CLOSED } from './wizard-closed';
import type { CreateAdminDto, InitSettingsDto, InitSettingsResultDto, InitStatusDto } from './dto/init.dto';

/** Its own advisory-lock key (7_244_151_002 is SIGNING_KEY_LOCK; a shared key would serialise the two for nothing). */
const WIZARD_LOCK_KEY = 7_244_151_003;

/** The install wizard: open while no admin exists, closed for good (410) afterwards. */
@Injectable()
export class InitService implements OnApplicationBootstrap {
  private readonly logger = new Logger('InstallWizard');
  private readonly token: BootstrapToken;
  private readonly baseUrl: string;
  /** Once an admin exists the wizard never opens again (an admin cannot be removed: last-admin). */
  private closedForGood = false;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersRepository,
    private readonly sessions: SessionTokens,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
    private readonly forges: ForgeAdminService,
  ) {
    this.token = new BootstrapToken(config.initToken);
    this.baseUrl = config.baseUrl;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (await this.closed()) return;
    // A configured INIT_TOKEN already sits in the operator's environment: repeating it would only
    // copy a secret into log storage. A generated one is logged once, or nobody could use it.
    if (this.token.configured) this.logger.warn('install wizard open: use the configured INIT_TOKEN');
    else this.logger.warn(`install wizard open: use bootstrap token ${this.token.value} (generated at this start)`);
  }

  /** Whether an admin exists (here or on another instance); remembered once true. */
  async closed(manager?: EntityManager): Promise<boolean> {
    if (!this.closedForGood && (await this.users.anyAdmin(manager))) this.close();
    return this.closedForGood;
  }

  private close(): void {
    this.closedForGood = true;
    this.token.retire();
  }

  async status(): Promise<InitStatusDto> {
    return { initialized: await this.users.anyAdmin() };
  }

  /**
   * Every wizard call runs in a transaction behind one advisory lock, and checks "closed" (410)
   * before the token (401) there: a request in flight while another creates the admin waits for
   * that commit and then hears 410, never a 401 from a token retired under it.
   */
  private async inOpenWizard<T>(bearer: string | null, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [WIZARD_LOCK_KEY]);
      await this.assertOpen(bearer, manager);
      return work(manager);
    });
  }

  /** 410 once closed, then 401 for a wrong token (inside the lock, or as a pre-check before slow work). */
  private async assertOpen(bearer: string | null, manager?: EntityManager): Promise<void> {
    if (await this.closed(manager)) throw gone(WIZARD_CLOSED);
    if (!this.token.matches(bearer))
      throw new DomainError('unauthorized', 'bad-bootstrap-token', 'the bootstrap token is missing or wrong');
  }

  /**
   * Creates the first admin and signs the caller in: the session comes back as JSON (for API
   * clients) and as the browser's HttpOnly session cookie (for the wizard page, whose script
   * cannot set one).
   */
  async createAdmin(bearer: string | null, input: CreateAdminDto, ip: string | null, response: Response): Promise<SessionIssuedDto> {
    const result = await this.inOpenWizard(bearer, async (manager) => {
      const user = await this.users.createLocal({ login: input.login, email: input.email ?? null, role: 'admin' }, manager);
      await this.audit.record(
        {
          action: 'user.create',
          actor: { userId: null, ip },
          details: { userId: user.id, login: user.login, role: 'admin', via: 'install-wizard' },
        },
        manager,
      );
      const session = await this.sessions.issue(user.id, manager);
      return { token: session.token, user: toUserDto(user) };
    });
    this.close();
    response.cookie(SESSION_COOKIE, result.token, sessionCookieOptions(this.baseUrl));
    return result;
  }

  /** Site name and forge instances; the instances are live on every server once this returns. */
  async putSettings(bearer: string | null, input: InitSettingsDto, ip: string | null): Promise<InitSettingsResultDto> {
    // The forges' URLs are vetted (DNS, up to 10 s each, in parallel) before the transaction and its
    // lock; only a caller that would be let in gets that far, and the transaction asks again.
    let checked: CheckedForge[] | undefined;
    if (input.forges !== undefined) {
      await this.assertOpen(bearer);
      checked = await this.forges.checkForWizard(input.forges);
    }
    await this.inOpenWizard(bearer, async (manager) => {
      if (input.siteName !== undefined) await this.settings.write('site.name', input.siteName, manager);
      if (checked !== undefined)
        await this.forges.replaceForWizard(checked, { actor: { userId: null, ip }, via: 'install-wizard' }, manager);
    });
    const forges = input.forges !== undefined ? await this.forges.wizardCommitted() : await this.forges.listStored();
    return { siteName: await this.settings.get('site.name'), forges };
  }
}
