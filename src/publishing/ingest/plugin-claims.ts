import { uniqueViolation } from '../../persistence/unique-violation';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { conflict, forbidden } from '../../common/errors/domain-error';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import type { ClaimRequest } from './ingest.types';

/**
 * The claim rules every way of submitting shares (CI push, OAuth submit): one repository, one
 * slug; a slug belongs to its owners. A repository already anchoring this very slug of the same
 * owner is that plugin (a repeated submit); anchoring another slug is 409 repo-claimed.
 */
@Injectable()
export class PluginClaims {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly audit: AuditService,
  ) {}

  /** The plugin this repository already anchors for `slug` and `ownerId`; null when the repository is free; 409 otherwise. */
  async existingAnchor(repoIdentity: string, slug: string, ownerId: string): Promise<PluginEntity | null> {
    const holder = await this.plugins.findByRepoIdentity(repoIdentity);
    if (!holder) return null;
    if (holder.slug === slug && (await this.plugins.isOwner(holder.id, ownerId))) return holder;
    throw conflict('repo-claimed', 'this repository is already claimed by another slug');
  }

  /**
   * Claims `slug` for the claimer without a release (an OAuth submit, whose first release arrives
   * by webhook): the same 403 and 409s as a push, and `plugin.claim` audited in the same transaction.
   */
  async claimWithoutRelease(
    slug: string,
    name: string,
    claim: ClaimRequest,
    actor: AuditActor,
  ): Promise<{ plugin: PluginEntity; claimed: boolean }> {
    const anchored = await this.existingAnchor(claim.repoIdentity, slug, claim.ownerId);
    if (anchored) return { plugin: anchored, claimed: false };
    const taken = await this.plugins.findBySlug(slug);
    if (taken)
      throw (await this.plugins.isOwner(taken.id, claim.ownerId))
        ? conflict('slug-taken', `"${slug}" is anchored to another repository`)
        : forbidden(`"${slug}" belongs to someone else`);
    try {
      const plugin = await this.dataSource.transaction(async (manager) => {
        const inserted = await this.plugins.insertClaimed(
          { slug, name, repoUrl: claim.repoUrl, repoIdentity: claim.repoIdentity, repoVerified: claim.repoVerified },
          claim.ownerId,
          manager,
        );
        await this.audit.record(
          { action: 'plugin.claim', actor, slug, details: { repoUrl: claim.repoUrl, repoVerified: claim.repoVerified, via: 'submit' } },
          manager,
        );
        return inserted;
      });
      return { plugin, claimed: true };
    } catch (error) {
      if (uniqueViolation(error) === null) throw error;
      // Lost a race with another claim: answer as if it had come first.
      const again = await this.existingAnchor(claim.repoIdentity, slug, claim.ownerId);
      if (again) return { plugin: again, claimed: false };
      throw conflict('slug-taken', `"${slug}" was claimed a moment ago for a different repository`);
    }
  }
}
