import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { StepUp } from '../../platform/auth/step-up';
import { Clock } from '../../common/clock';
import { isUuid } from '../../common/validation/uuid';
import { conflict, notFound } from '../../common/errors/domain-error';
import { uniqueViolation } from '../../persistence/unique-violation';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { PluginClaims } from '../ingest/plugin-claims';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { RepositoryAccess } from '../repository-access/repository-access';
import type { CreatePendingPublisherDto, PendingPublisherDto, PendingPublisherListDto } from './dto/trusted-publisher.dto';
import { PendingPrecedence, pendingExists } from './pending-precedence';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { PublisherIdentities } from './publisher-identity';
import { auditDetails } from './trusted-publishers.service';
import { toPendingPublisherDto } from './trusted-publishing.mapper';

export const MAX_PENDING_PUBLISHERS_PER_USER = 10;

/**
 * A signed-in user's pending publishers: slugs to claim at the first matching OIDC push. The claim
 * rules are checked now as they will be at use (the slug is free, the repository anchors no other
 * slug, the same proof of repository control as a claim by push), and again at the push. The
 * repository id is the forge's; the repository owner's registration comes first (PendingPrecedence).
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
    private readonly precedence: PendingPrecedence,
    private readonly forges: ForgeRegistry,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly stepUp: StepUp,
  ) {}

  async list(auth: AuthContext): Promise<PendingPublisherListDto> {
    return { pendingPublishers: (await this.pending.listForUser(auth.user.id)).map((row) => toPendingPublisherDto(row, this.forges)) };
  }

  async add(auth: AuthContext, input: CreatePendingPublisherDto, ip: string | null): Promise<PendingPublisherDto> {
    // A pending publisher becomes a lasting way to publish, as a token is: the same step-up rule.
    this.stepUp.require(auth);
    const userId = auth.user.id;
    // Checked early so a full list costs no forge call; the check that holds is the locked one below.
    await this.belowCap(userId);
    const checked = this.identities.check(input);
    if (await this.plugins.findBySlug(input.slug))
      throw conflict('slug-taken', `"${input.slug}" exists already: its owners add trusted publishers to it instead`);
    await this.claims.existingAnchor(checked.repoIdentity, input.slug, userId);
    // The proof reads the repository record with the registrant's own token; the id is taken from it.
    const proof = await this.repositoryAccess.proveClaim(userId, checked.repoUrl);
    const identity = await this.identities.resolve(checked, input.repositoryId, proof.repository);
    const { verified, displace } = await this.precedence.settle(userId, input.slug, identity, proof.verified);
    const actor = { userId, ip };
    try {
      // The user's row is locked first, so parallel registrations count one after another.
      const row = await this.pending.withUserLocked(userId, async (manager) => {
        await this.belowCap(userId, manager);
        // Displaced first: the repository's unique index holds active entries only. One removed or
        // used meanwhile is not displaced (nor audited); the insert below then has the repository free.
        const reason = displace ? this.precedence.reason(identity, displace) : '';
        const displaced = displace !== null && (await this.pending.displace(displace.id, reason, this.clock.now(), manager));
        const inserted = await this.pending.insert(
          {
            userId,
            slug: input.slug,
            forge: identity.forge.name,
            repositoryId: identity.repositoryId,
            repositoryPath: identity.repositoryPath,
            workflow: identity.workflow,
            refPattern: identity.refPattern,
            environment: identity.environment,
            repoUrl: identity.repoUrl,
            repoIdentity: identity.repoIdentity,
            repoVerified: verified,
          },
          manager,
        );
        await this.audit.record(
          {
            action: 'trusted_publisher.add',
            actor,
            slug: input.slug,
            details: { pending: true, repoVerified: verified, ...auditDetails(inserted) },
          },
          manager,
        );
        if (displace && displaced) {
          await this.audit.record(
            {
              action: 'trusted_publisher.displace',
              actor,
              slug: displace.slug,
              details: { pending: true, ...auditDetails(displace), userId: displace.userId, displacedBy: inserted.id, reason },
            },
            manager,
          );
        }
        return inserted;
      });
      return toPendingPublisherDto(row, this.forges);
    } catch (error) {
      if (uniqueViolation(error) !== null) throw pendingExists();
      throw error;
    }
  }

  private async belowCap(userId: string, manager?: EntityManager): Promise<void> {
    if ((await this.pending.countActiveForUser(userId, manager)) >= MAX_PENDING_PUBLISHERS_PER_USER) {
      throw conflict('conflict', `at most ${MAX_PENDING_PUBLISHERS_PER_USER} pending publishers per user; remove one first`);
    }
  }

  async remove(auth: AuthContext, id: string, ip: string | null): Promise<void> {
    const row = isUuid(id) ? await this.pending.findForUser(id, auth.user.id) : null;
    if (!row) throw notFound('no such pending publisher of yours');
    await this.dataSource.transaction(async (manager) => {
      if (await this.pending.delete(row.id, manager)) {
        await this.audit.record(
          {
            action: 'trusted_publisher.remove',
            actor: { userId: auth.user.id, ip },
            slug: row.slug,
            details: { pending: true, ...auditDetails(row) },
          },
          manager,
        );
      }
    });
  }
}
