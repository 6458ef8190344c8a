import { uniqueViolation } from '../database/unique-violation';
import { Injectable } from '@nestjs/common';
import { isUuid } from '../common/validation/uuid';
import { DataSource } from 'typeorm';
import { AuditService } from '../audit/audit.service';
import type { AuthContext } from '../auth/auth-context';
import { conflict, notFound } from '../common/errors/domain-error';
import { ForgeRegistry } from '../forges/forge-registry';
import { PluginClaims } from '../ingest/plugin-claims';
import { PluginsRepository } from '../plugins/plugins.repository';
import { RepositoryAccess } from '../publish/repository-access';
import type { CreatePendingPublisherDto, PendingPublisherDto, PendingPublisherListDto } from './dto/trusted-publisher.dto';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { PublisherIdentities } from './publisher-identity';
import { auditDetails } from './trusted-publishers.service';
import { toPendingPublisherDto } from './trusted-publishing.mapper';

export const MAX_PENDING_PUBLISHERS_PER_USER = 10;

const pendingExists = () => conflict('pending-publisher-exists', 'a pending publisher already holds this slug or this repository');

/**
 * A signed-in user's pending publishers: slugs to claim at the first matching OIDC push. The claim
 * rules are checked now as they will be at use (the slug is free, the repository anchors no other
 * slug, the same proof of repository control as a claim by push), and again at the push.
 */
@Injectable()
export class PendingPublishersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly pending: PendingPublishersRepository,
    private readonly plugins: PluginsRepository,
    private readonly claims: PluginClaims,
    private readonly repositoryAccess: RepositoryAccess,
    private readonly identities: PublisherIdentities,
    private readonly forges: ForgeRegistry,
    private readonly audit: AuditService,
  ) {}

  async list(auth: AuthContext): Promise<PendingPublisherListDto> {
    return { pendingPublishers: (await this.pending.listForUser(auth.user.id)).map((row) => toPendingPublisherDto(row, this.forges)) };
  }

  async add(auth: AuthContext, input: CreatePendingPublisherDto, ip: string | null): Promise<PendingPublisherDto> {
    if ((await this.pending.countForUser(auth.user.id)) >= MAX_PENDING_PUBLISHERS_PER_USER) {
      throw conflict('conflict', `at most ${MAX_PENDING_PUBLISHERS_PER_USER} pending publishers per user; remove one first`);
    }
    const identity = await this.identities.resolve(input);
    if (await this.plugins.findBySlug(input.slug)) throw conflict('slug-taken', `"${input.slug}" exists already: its owners add trusted publishers to it instead`);
    await this.claims.existingAnchor(identity.repoIdentity, input.slug, auth.user.id);
    if (await this.pending.isTaken(input.slug, identity.forge.name, identity.repositoryId)) throw pendingExists();
    const repoVerified = await this.repositoryAccess.verifyClaim(auth.user.id, identity.repoUrl);
    try {
      const row = await this.dataSource.transaction(async (manager) => {
        const inserted = await this.pending.insert(
          {
            userId: auth.user.id,
            slug: input.slug,
            forge: identity.forge.name,
            repositoryId: identity.repositoryId,
            repositoryPath: identity.repositoryPath,
            workflow: identity.workflow,
            refPattern: identity.refPattern,
            environment: identity.environment,
            repoUrl: identity.repoUrl,
            repoIdentity: identity.repoIdentity,
            repoVerified,
          },
          manager,
        );
        await this.audit.record(
          { action: 'trusted_publisher.add', actor: { userId: auth.user.id, ip }, slug: input.slug, details: { pending: true, ...auditDetails(inserted) } },
          manager,
        );
        return inserted;
      });
      return toPendingPublisherDto(row, this.forges);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw pendingExists();
      throw error;
    }
  }

  async remove(auth: AuthContext, id: string, ip: string | null): Promise<void> {
    const row = isUuid(id) ? await this.pending.findForUser(id, auth.user.id) : null;
    if (!row) throw notFound('no such pending publisher of yours');
    await this.dataSource.transaction(async (manager) => {
      if (await this.pending.delete(row.id, manager)) {
        await this.audit.record(
          { action: 'trusted_publisher.remove', actor: { userId: auth.user.id, ip }, slug: row.slug, details: { pending: true, ...auditDetails(row) } },
          manager,
        );
      }
    });
  }
}
