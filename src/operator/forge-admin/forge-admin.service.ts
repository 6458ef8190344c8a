import { Inject, Injectable, Logger } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { badRequest, conflict, DomainError, notFound, type ProblemFieldError } from '../../common/errors/domain-error';
import { AssetFetchError, vetUrl } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { DEFAULT_FORGES } from '../../config/forges';
import { forgeAdapter } from '../../platform/forges/adapters';
import { FORGE_RELOAD_INTERVAL_MS, ForgeRegistry, type LiveForge, webUrlKey } from '../../platform/forges/forge-registry';
import { sealClientSecret } from '../../platform/forges/stored-forge-secret';
import { StoredForgesRepository } from '../../platform/forges/stored-forges.repository';
import { UsersRepository } from '../../platform/users/users.repository';
import type { AddForgeDto, ForgeInstanceDto, ForgeInstanceListDto } from './dto/forge-instance.dto';
import { toForgeInstanceDto } from './forge-admin.mapper';

/** Names an instance cannot take: `local` is the instance of accounts made on this registry. */
const RESERVED_NAMES = new Set(['local']);

/** An instance checked and ready to store (URLs normalized, API root filled in). */
export interface CheckedForge {
  name: string;
  type: AddForgeDto['type'];
  webUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

/** Who adds: an admin through the API, or the install wizard's bootstrap token. */
export type ForgeWriter = { actor: AuditActor; via: 'admin' | 'install-wizard' };

/**
 * Forge instances admins add, list and remove without a restart. Configured ones (`FORGES`) are
 * read-only; a built-in default (used while `FORGES` is unset) can be replaced by an added
 * instance of the same name or web URL (github.com with this registry's OAuth app, say). The
 * client secret is sealed with KEY_ENCRYPTION_KEY and never leaves the server again.
 */
@Injectable()
export class ForgeAdminService {
  private readonly logger = new Logger('Forges');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ForgeRegistry,
    private readonly stored: StoredForgesRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly users: UsersRepository,
  ) {}

  async list(): Promise<ForgeInstanceListDto> {
    await this.registry.refresh();
    return { forges: this.registry.entries().map((entry) => toForgeInstanceDto(entry, this.config.baseUrl)) };
  }

  async add(input: AddForgeDto, writer: ForgeWriter): Promise<ForgeInstanceDto> {
    const forge = await this.check(input, '');
    const added = await this.stored.inWriteTransaction((manager) => this.insert(forge, writer, manager, ''));
    await this.reloadAfterCommit();
    // The stored row is the answer even when the reload failed or a concurrent removal beat it.
    const entry = this.registry.entries().find((e) => e.source === 'stored' && e.forge.name === forge.name) ?? added;
    return toForgeInstanceDto(entry, this.config.baseUrl);
  }

  /**
   * Checks the install wizard's list (PUT /api/init/settings) before its transaction and lock: the
   * URLs' DNS answers are awaited in parallel, with no database connection held meanwhile. The
   * first failing instance (by position) is the answer.
   */
  async checkForWizard(inputs: readonly AddForgeDto[]): Promise<CheckedForge[]> {
    const results = await Promise.allSettled(inputs.map((input, index) => this.check(input, `/forges/${index}`)));
    const failed = results.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    const checked = results.map((result) => (result as PromiseFulfilledResult<CheckedForge>).value);
    const names = new Set<string>();
    for (const [index, forge] of checked.entries()) {
      if (names.has(forge.name)) throw conflict('forge-exists', `forges/${index}: the name "${forge.name}" is given twice`);
      names.add(forge.name);
    }
    return checked;
  }

  /**
   * The install wizard's list: the stored instances become exactly these (checked by
   * `checkForWizard`), in the wizard's own transaction.
   */
  async replaceForWizard(checked: readonly CheckedForge[], writer: ForgeWriter, manager: EntityManager): Promise<void> {
    await this.stored.lockForWrite(manager);
    for (const name of await this.stored.removeAll(manager)) {
      await this.audit.record({ action: 'forge.delete', actor: writer.actor, details: { name, via: writer.via } }, manager);
    }
    for (const [index, forge] of checked.entries()) await this.insert(forge, writer, manager, `/forges/${index}`);
  }

  /** After the wizard's transaction committed: load the new list here and tell the other servers. */
  async wizardCommitted(): Promise<ForgeInstanceDto[]> {
    await this.reloadAfterCommit();
    return this.storedViews();
  }

  /** The added instances (the wizard's answer). */
  async listStored(): Promise<ForgeInstanceDto[]> {
    await this.registry.refresh();
    return this.storedViews();
  }

  private storedViews(): ForgeInstanceDto[] {
    return this.registry
      .entries()
      .filter((entry) => entry.source === 'stored')
      .map((entry) => toForgeInstanceDto(entry, this.config.baseUrl));
  }

  async remove(name: string, writer: ForgeWriter): Promise<void> {
    await this.stored.inWriteTransaction(async (manager) => {
      const row = (await this.stored.list(manager)).find((r) => r.name === name);
      if (!row) {
        const configured = this.registry.entries().find((entry) => entry.source !== 'stored' && entry.forge.name === name);
        if (configured)
          throw conflict('forge-configured', `the forge instance "${name}" comes from the FORGES configuration; change it there`);
        throw notFound(`no forge instance "${name}"`);
      }
      await this.stored.remove(name, manager);
      await this.audit.record(
        { action: 'forge.delete', actor: writer.actor, details: { name, type: row.type, webUrl: row.webUrl, via: writer.via } },
        manager,
      );
    });
    await this.reloadAfterCommit();
  }

  /**
   * After a commit: reload here and tell the other servers. The change is stored whatever happens
   * now, so a failed reload (the database briefly gone) is logged, not answered as an error: the
   * background check catches up within FORGE_RELOAD_INTERVAL_MS.
   */
  private async reloadAfterCommit(): Promise<void> {
    try {
      await this.registry.changed();
    } catch (error) {
      this.logger.warn(
        `a forge instance change is stored, but reloading the list failed (retried within ${FORGE_RELOAD_INTERVAL_MS / 1000} s): ${(error as Error).message}`,
      );
    }
  }

  /**
   * Name, URLs and the fetch policy
   * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch). Callers run it before
   * any transaction (add, and the wizard through checkForWizard): a DNS answer can take up to 10 s.
   */
  private async check(input: AddForgeDto, at: string): Promise<CheckedForge> {
    const errors: ProblemFieldError[] = [];
    if (RESERVED_NAMES.has(input.name)) errors.push({ path: `${at}/name`, message: `name: "${input.name}" is reserved` });
    const webUrl = this.normalizeUrl(input.webUrl, `${at}/webUrl`, errors);
    const apiUrl =
      input.apiUrl === undefined || input.apiUrl.trim() === ''
        ? webUrl
          ? forgeAdapter(input.type).defaultApiUrl(webUrl)
          : null
        : this.normalizeUrl(input.apiUrl, `${at}/apiUrl`, errors);
    if (errors.length > 0) throw badRequest('validation-failed', errors.map((e) => e.message).join('; '), errors);
    const webRefusal = await this.policyRefusal(webUrl!);
    if (webRefusal) errors.push({ path: `${at}/webUrl`, message: `webUrl: ${webRefusal}` });
    // An API root derived from a refused web URL would only repeat the same refusal.
    const derived = input.apiUrl === undefined || input.apiUrl.trim() === '';
    const apiRefusal = derived && webRefusal ? null : await this.policyRefusal(apiUrl!);
    if (apiRefusal) errors.push({ path: `${at}/apiUrl`, message: `apiUrl: ${apiRefusal}` });
    if (errors.length > 0) throw badRequest('forge-url-refused', errors.map((e) => e.message).join('; '), errors);
    return {
      name: input.name,
      type: input.type,
      webUrl: webUrl!,
      apiUrl: apiUrl!,
      clientId: input.clientId,
      clientSecret: input.clientSecret,
    };
  }

  /** An http(s) URL without credentials, query or fragment, with no trailing slash; null (and an error) otherwise. */
  private normalizeUrl(value: string, path: string, errors: ProblemFieldError[]): string | null {
    const key = path.split('/').pop();
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      errors.push({ path, message: `${key}: must be an http(s) URL` });
      return null;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') errors.push({ path, message: `${key}: must be an http(s) URL` });
    else if (url.username || url.password) errors.push({ path, message: `${key}: must not carry a user name or password` });
    else if (url.search || url.hash) errors.push({ path, message: `${key}: must not carry a query or fragment` });
    else return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
    return null;
  }

  /** Why the registry would not call this URL (scheme, local name, private address), or null. */
  private async policyRefusal(url: string): Promise<string | null> {
    try {
      await vetUrl(url, { allowHosts: this.config.fetchAllowHosts });
      return null;
    } catch (error) {
      if (error instanceof AssetFetchError) return error.message;
      return `could not resolve host ${new URL(url).hostname} in time`;
    }
  }

  /** Stores a checked instance, refusing clashes (409) before anything is written; answers the stored row as a live entry. */
  private async insert(forge: CheckedForge, writer: ForgeWriter, manager: EntityManager, at: string): Promise<LiveForge> {
    const key = webUrlKey(forge.webUrl);
    const clashes = this.registry
      .entries()
      .filter((entry) => entry.source !== 'stored' && (entry.forge.name === forge.name || webUrlKey(entry.forge.webUrl) === key));
    const configured = clashes.find((entry) => entry.source === 'configuration');
    if (configured) {
      throw conflict(
        'forge-exists',
        `the forge instance "${configured.forge.name}" in the FORGES configuration already has this ${configured.forge.name === forge.name ? 'name' : 'web URL'}`,
      );
    }
    if (clashes.length > 1)
      throw conflict(
        'forge-exists',
        `the name and the web URL belong to two different built-in instances (${clashes.map((c) => c.forge.name).join(', ')})`,
      );
    const stored = (await this.stored.list(manager)).find((row) => row.name === forge.name || webUrlKey(row.webUrl) === key);
    if (stored)
      throw conflict(
        'forge-exists',
        `the added forge instance "${stored.name}" already has this ${stored.name === forge.name ? 'name' : 'web URL'}; remove it first`,
      );
    await this.checkNameBinding(forge, at, manager);
    const createdAt = this.clock.now();
    await this.stored.insert(
      {
        name: forge.name,
        type: forge.type,
        webUrl: forge.webUrl,
        apiUrl: forge.apiUrl,
        clientId: forge.clientId,
        clientSecretSealed: sealClientSecret(this.config.keyEncryptionKey, forge.name, forge.clientSecret),
        createdAt,
        createdBy: writer.actor.userId ?? null,
      },
      manager,
    );
    await this.stored.recordName(forge.name, forge.webUrl, createdAt, manager);
    await this.audit.record(
      {
        action: 'forge.create',
        actor: writer.actor,
        details: {
          name: forge.name,
          type: forge.type,
          webUrl: forge.webUrl,
          apiUrl: forge.apiUrl,
          via: writer.via,
          ...(clashes.length === 1 ? { replaces: clashes[0].forge.name } : {}),
        },
      },
      manager,
    );
    const live = {
      name: forge.name,
      type: forge.type,
      webUrl: forge.webUrl,
      apiUrl: forge.apiUrl,
      clientId: forge.clientId,
      clientSecret: forge.clientSecret,
    };
    return { forge: live, source: 'stored', createdAt, createdBy: writer.actor.userId ?? null };
  }

  /**
   * Accounts are keyed by (instance name, the forge's user id): a name accounts use may only stand
   * for the web URL they signed in through, or the new server's users with the same ids would own
   * them. That URL is the one recorded when the name was last added, else the built-in default's;
   * a live built-in default is only replaced by an instance of its own web URL.
   */
  private async checkNameBinding(forge: CheckedForge, at: string, manager: EntityManager): Promise<void> {
    const key = webUrlKey(forge.webUrl);
    const refuse = (message: string) => new DomainError('conflict', 'forge-name-bound', message, [{ path: `${at}/webUrl`, message }]);
    const liveDefault = this.registry.entries().find((entry) => entry.source === 'default' && entry.forge.name === forge.name);
    if (liveDefault && webUrlKey(liveDefault.forge.webUrl) !== key) {
      throw refuse(
        `webUrl: the built-in instance "${forge.name}" is ${liveDefault.forge.webUrl}; an instance of that name must have the same web URL (pick another name for another server)`,
      );
    }
    const recorded =
      (await this.stored.recordedWebUrl(forge.name, manager)) ?? DEFAULT_FORGES.find((d) => d.name === forge.name)?.webUrl ?? null;
    if (recorded !== null && webUrlKey(recorded) === key) return;
    if (!(await this.users.anyOfInstance(forge.name, manager))) return;
    throw refuse(
      recorded === null
        ? `webUrl: accounts signed in through an instance named "${forge.name}" whose web URL is not known; pick another name`
        : `webUrl: accounts signed in through "${forge.name}" when it was ${recorded}; the name can only come back for that web URL (pick another name for another server)`,
    );
  }
}
