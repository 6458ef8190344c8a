import { Injectable } from '@nestjs/common';
import { isUuid } from '../../common/validation/uuid';
import { DataSource } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { StepUp } from '../../platform/auth/step-up';
import { conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import type { CreateTrustedPublisherDto, TrustedPublisherDto, TrustedPublisherListDto } from './dto/trusted-publisher.dto';
import { PublisherIdentities } from './publisher-identity';
import { toTrustedPublisherDto } from './trusted-publishing.mapper';
import { TrustedPublishersRepository } from './trusted-publishers.repository';

export const MAX_TRUSTED_PUBLISHERS_PER_PLUGIN = 20;

/** A plugin's trusted publishers, managed by its owners (not admins: they decide who publishes). */
@Injectable()
export class TrustedPublishersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly publishers: TrustedPublishersRepository,
    private readonly identities: PublisherIdentities,
    private readonly forges: ForgeRegistry,
    private readonly audit: AuditService,
    private readonly stepUp: StepUp,
  ) {}

  private async ownedPlugin(auth: AuthContext, slug: string): Promise<PluginEntity> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    if (!(await this.plugins.isOwner(plugin.id, auth.user.id)))
      throw forbidden(`only the owners of "${slug}" manage its trusted publishers`);
    return plugin;
  }

  async list(auth: AuthContext, slug: string): Promise<TrustedPublisherListDto> {
    const plugin = await this.ownedPlugin(auth, slug);
    return { trustedPublishers: (await this.publishers.listForPlugin(plugin.id)).map((row) => toTrustedPublisherDto(row, this.forges)) };
  }

  async add(auth: AuthContext, slug: string, input: CreateTrustedPublisherDto, ip: string | null): Promise<TrustedPublisherDto> {
    const plugin = await this.ownedPlugin(auth, slug);
    // A trusted publisher is a lasting way to publish, as a token is: the same step-up rule.
    this.stepUp.require(auth);
    const identity = await this.identities.resolve(this.identities.check(input), input.repositoryId);
    const row = await this.dataSource.transaction(async (manager) => {
      // Ownership is held until the configuration is written, so an owner removed meanwhile adds nothing.
      if (!(await this.plugins.isOwnerLocked(plugin.id, auth.user.id, manager)))
        throw forbidden(`only the owners of "${slug}" manage its trusted publishers`);
      if ((await this.publishers.countForPlugin(plugin.id, manager)) >= MAX_TRUSTED_PUBLISHERS_PER_PLUGIN) {
        throw conflict('conflict', `a plugin has at most ${MAX_TRUSTED_PUBLISHERS_PER_PLUGIN} trusted publishers; remove one first`);
      }
      const inserted = await this.publishers.insert(
        {
          pluginId: plugin.id,
          forge: identity.forge.name,
          repositoryId: identity.repositoryId,
          repositoryPath: identity.repositoryPath,
          workflow: identity.workflow,
          refPattern: identity.refPattern,
          environment: identity.environment,
          allowYank: input.allowYank ?? false,
          createdBy: auth.user.id,
        },
        manager,
      );
      await this.audit.record(
        { action: 'trusted_publisher.add', actor: { userId: auth.user.id, ip }, slug, details: auditDetails(inserted) },
        manager,
      );
      return inserted;
    });
    return toTrustedPublisherDto(row, this.forges);
  }

  async remove(auth: AuthContext, slug: string, id: string, ip: string | null): Promise<void> {
    const plugin = await this.ownedPlugin(auth, slug);
    const row = isUuid(id) ? await this.publishers.findForPlugin(id, plugin.id) : null;
    if (!row) throw notFound(`no such trusted publisher of "${slug}"`);
    await this.dataSource.transaction(async (manager) => {
      if (await this.publishers.delete(row.id, manager)) {
        await this.audit.record(
          { action: 'trusted_publisher.remove', actor: { userId: auth.user.id, ip }, slug, details: auditDetails(row) },
          manager,
        );
      }
    });
  }
}

export function auditDetails(row: {
  id: string;
  forge: string;
  repositoryPath: string;
  repositoryId: string;
  workflow: string | null;
  refPattern: string | null;
  environment: string | null;
}) {
  return {
    id: row.id,
    forge: row.forge,
    repository: row.repositoryPath,
    repositoryId: row.repositoryId,
    workflow: row.workflow,
    ref: row.refPattern,
    environment: row.environment,
  };
}
