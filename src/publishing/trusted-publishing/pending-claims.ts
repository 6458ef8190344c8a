import { Injectable } from '@nestjs/common';
import { AuditService, type AuditActor } from '../../platform/audit/audit.service';
import { conflict, forbidden } from '../../common/errors/domain-error';
import { PluginClaims } from '../ingest/plugin-claims';
import type { ClaimFollowUp, IngestTarget } from '../ingest/ingest.types';
import type { PublisherTokenEntity } from '../../accounts/tokens/entities/publisher-token.entity';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { auditDetails } from './trusted-publishers.service';
import { TrustedPublishersRepository } from './trusted-publishers.repository';

/** The pending publisher a trusted token may claim `slug` with, or null. */
export function pendingClaimOf(token: PublisherTokenEntity, slug: string): { id: string; slug: string } | null {
  const pending = token.trusted?.pending ?? null;
  return pending && pending.slug === slug ? pending : null;
}

/**
 * The push side of a pending publisher: the first push of its slug by a token minted from it
 * claims the slug for the user who registered it, anchored to the registered repository, under
 * the claim rules every submit path shares (PluginClaims). The entry is consumed, and becomes the
 * plugin's trusted publisher, in the very transaction that records the claim.
 */
@Injectable()
export class PendingClaims {
  constructor(
    private readonly pending: PendingPublishersRepository,
    private readonly publishers: TrustedPublishersRepository,
    private readonly claims: PluginClaims,
    private readonly audit: AuditService,
  ) {}

  async target(token: PublisherTokenEntity, slug: string, actor: AuditActor): Promise<{ target: IngestTarget; onClaim: ClaimFollowUp }> {
    const claim = pendingClaimOf(token, slug);
    const entry = claim ? await this.pending.findActiveById(claim.id) : null;
    if (!entry || entry.userId !== token.userId || entry.slug !== slug)
      throw forbidden(`the pending publisher of "${slug}" was used, removed or displaced: claiming it needs a new one`);
    const anchored = await this.claims.existingAnchor(entry.repoIdentity, slug, entry.userId);
    if (anchored) return { target: { pluginId: anchored.id }, onClaim: async () => undefined };
    const onClaim: ClaimFollowUp = async (pluginId, manager) => {
      if (!(await this.pending.consume(entry.id, manager)))
        throw conflict('slug-taken', `the pending publisher of "${slug}" was used by another push a moment ago`);
      const config = await this.publishers.insert(
        {
          pluginId,
          forge: entry.forge,
          repositoryId: entry.repositoryId,
          repositoryPath: entry.repositoryPath,
          workflow: entry.workflow,
          refPattern: entry.refPattern,
          environment: entry.environment,
          allowYank: false,
          createdBy: entry.userId,
        },
        manager,
      );
      await this.audit.record(
        { action: 'trusted_publisher.add', actor, slug, details: { fromPending: entry.id, ...auditDetails(config) } },
        manager,
      );
    };
    return {
      target: {
        claim: { repoUrl: entry.repoUrl, repoIdentity: entry.repoIdentity, repoVerified: entry.repoVerified, ownerId: entry.userId },
      },
      onClaim,
    };
  }
}
