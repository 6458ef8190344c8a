import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../audit/audit.service';
import { Clock } from '../common/clock';
import { badRequest, conflict, notFound, type ProblemFieldError } from '../common/errors/domain-error';
import { AssetFetchError, vetUrl } from '../common/fetch';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { forgeAdapter } from '../forges/adapters';
import { ForgeRegistry, webUrlKey } from '../forges/forge-registry';
import { sealClientSecret } from '../forges/stored-forge-secret';
import { StoredForgesRepository } from '../forges/stored-forges.repository';
import type { AddForgeDto, ForgeInstanceDto, ForgeInstanceListDto } from './dto/forge-instance.dto';
import { toForgeInstanceDto } from './forge-admin.mapper';

/** Names an instance cannot take: `local` is the instance of accounts made on this registry. */
const RESERVED_NAMES = new Set(['local']);

/** An instance checked and ready to store (URLs normalized, API root filled in). */
interface CheckedForge {
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
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ForgeRegistry,
    private readonly stored: StoredForgesRepository,
    private readonly audit: AuditService,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<ForgeInstanceListDto> {
    await this.registry.refresh();
    return { forges: this.registry.entries().map((entry) => toForgeInstanceDto(entry, this.config.baseUrl)) };
  }

  async add(input: AddForgeDto, writer: ForgeWriter): Promise<ForgeInstanceDto> {
    const forge = await this.check(input, '');
    await this.stored.inWriteTransaction((manager) => this.insert(forge, writer, manager));
    return this.afterChange(forge.name);
  }

  /**
   * The install wizard's list (PUT /api/init/settings): the stored instances become exactly these,
   * in the wizard's own transaction. Every instance is checked before anything is written.
   */
  async replaceForWizard(inputs: readonly AddForgeDto[], writer: ForgeWriter, manager: EntityManager): Promise<void> {
    const checked: CheckedForge[] = [];
    for (const [index, input] of inputs.entries()) checked.push(await this.check(input, `/forges/${index}`));
    const names = new Set<string>();
    for (const [index, forge] of checked.entries()) {
      if (names.has(forge.name)) throw conflict('forge-exists', `forges/${index}: the name "${forge.name}" is given twice`);
      names.add(forge.name);
    }
    await this.stored.lockForWrite(manager);
    for (const name of await this.stored.removeAll(manager)) {
      await this.audit.record({ action: 'forge.delete', actor: writer.actor, details: { name, via: writer.via } }, manager);
    }
    for (const forge of checked) await this.insert(forge, writer, manager);
  }

  /** After the wizard's transaction committed: load the new list here and tell the other servers. */
  async wizardCommitted(): Promise<ForgeInstanceDto[]> {
    await this.registry.changed();
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
        if (configured) throw conflict('forge-configured', `the forge instance "${name}" comes from the FORGES configuration; change it there`);
        throw notFound(`no forge instance "${name}"`);
      }
      await this.stored.remove(name, manager);
      await this.audit.record({ action: 'forge.delete', actor: writer.actor, details: { name, type: row.type, webUrl: row.webUrl, via: writer.via } }, manager);
    });
    await this.registry.changed();
  }

  private async afterChange(name: string): Promise<ForgeInstanceDto> {
    await this.registry.changed();
    const entry = this.registry.entries().find((e) => e.source === 'stored' && e.forge.name === name);
    // Only a FORGES entry of the same name arriving between commit and reload could hide it.
    if (!entry) throw conflict('forge-exists', `the forge instance "${name}" is shadowed by the FORGES configuration`);
    return toForgeInstanceDto(entry, this.config.baseUrl);
  }

  /** Name, URLs and the fetch policy (DECISIONS 5), before any transaction: a DNS answer can take a while. */
  private async check(input: AddForgeDto, at: string): Promise<CheckedForge> {
    const errors: ProblemFieldError[] = [];
    if (RESERVED_NAMES.has(input.name)) errors.push({ path: `${at}/name`, message: `name: "${input.name}" is reserved` });
    const webUrl = this.normalizeUrl(input.webUrl, `${at}/webUrl`, errors);
    const apiUrl = input.apiUrl === undefined || input.apiUrl.trim() === '' ? (webUrl ? forgeAdapter(input.type).defaultApiUrl(webUrl) : null) : this.normalizeUrl(input.apiUrl, `${at}/apiUrl`, errors);
    if (errors.length > 0) throw badRequest('validation-failed', errors.map((e) => e.message).join('; '), errors);
    const webRefusal = await this.policyRefusal(webUrl!);
    if (webRefusal) errors.push({ path: `${at}/webUrl`, message: `webUrl: ${webRefusal}` });
    // An API root derived from a refused web URL would only repeat the same refusal.
    const derived = input.apiUrl === undefined || input.apiUrl.trim() === '';
    const apiRefusal = derived && webRefusal ? null : await this.policyRefusal(apiUrl!);
    if (apiRefusal) errors.push({ path: `${at}/apiUrl`, message: `apiUrl: ${apiRefusal}` });
    if (errors.length > 0) throw badRequest('forge-url-refused', errors.map((e) => e.message).join('; '), errors);
    return { name: input.name, type: input.type, webUrl: webUrl!, apiUrl: apiUrl!, clientId: input.clientId, clientSecret: input.clientSecret };
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

  private async insert(forge: CheckedForge, writer: ForgeWriter, manager: EntityManager): Promise<void> {
    const key = webUrlKey(forge.webUrl);
    const clashes = this.registry.entries().filter((entry) => entry.source !== 'stored' && (entry.forge.name === forge.name || webUrlKey(entry.forge.webUrl) === key));
    const configured = clashes.find((entry) => entry.source === 'configuration');
    if (configured) {
      throw conflict('forge-exists', `the forge instance "${configured.forge.name}" in the FORGES configuration already has this ${configured.forge.name === forge.name ? 'name' : 'web URL'}`);
    }
    if (clashes.length > 1) throw conflict('forge-exists', `the name and the web URL belong to two different built-in instances (${clashes.map((c) => c.forge.name).join(', ')})`);
    const stored = (await this.stored.list(manager)).find((row) => row.name === forge.name || webUrlKey(row.webUrl) === key);
    if (stored) throw conflict('forge-exists', `the added forge instance "${stored.name}" already has this ${stored.name === forge.name ? 'name' : 'web URL'}; remove it first`);
    await this.stored.insert(
      {
        name: forge.name,
        type: forge.type,
        webUrl: forge.webUrl,
        apiUrl: forge.apiUrl,
        clientId: forge.clientId,
        clientSecretSealed: sealClientSecret(this.config.keyEncryptionKey, forge.name, forge.clientSecret),
        createdAt: this.clock.now(),
        createdBy: writer.actor.userId ?? null,
      },
      manager,
    );
    await this.audit.record(
      {
        action: 'forge.create',
        actor: writer.actor,
        details: { name: forge.name, type: forge.type, webUrl: forge.webUrl, apiUrl: forge.apiUrl, via: writer.via, ...(clashes.length === 1 ? { replaces: clashes[0].forge.name } : {}) },
      },
      manager,
    );
  }
}
