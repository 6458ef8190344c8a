import { Injectable } from '@nestjs/common';
import type { CiIdentity } from '../../platform/forges/forge-adapter';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { parseRepoUrl } from '../../platform/forges/urls';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { PendingPublishersRepository } from './pending-publishers.repository';
import { matchesIdentity } from './publisher-match';
import { TrustedPublishersRepository } from './trusted-publishers.repository';

/** What a CI identity may do: the user its short-lived token belongs to, and its scopes. */
export interface TrustedGrant {
  userId: string;
  scopes: string[];
  /** The matching trusted publishers (of that user's plugins). */
  trustedPublisherIds: string[];
  /** A matching pending publisher of that user, whose slug the token may claim. */
  pending: { id: string; slug: string } | null;
}

/**
 * Matches a verified CI identity against trusted and pending publishers. A trusted publisher acts
 * for the owner who added it, and only while that owner still owns the plugin and is enabled (a
 * token never has more rights than its owner). A token belongs to one user: when publishers of
 * several users match, the repository owner's come first (registered with proof of control: a
 * pending publisher so registered, or one of the plugin the repository anchors, claimed with that
 * proof), else the oldest publisher's user is chosen; the others are left out.
 */
@Injectable()
export class TrustedGrants {
  constructor(
    private readonly publishers: TrustedPublishersRepository,
    private readonly pending: PendingPublishersRepository,
    private readonly plugins: PluginsRepository,
    private readonly forges: ForgeRegistry,
  ) {}

  async grantFor(forge: string, identity: CiIdentity): Promise<TrustedGrant | null> {
    const usable = [];
    for (const config of await this.publishers.forRepository(forge, identity.repositoryId)) {
      if (!matchesIdentity(config, identity) || config.creator?.disabledAt) continue;
      if (await this.plugins.isOwner(config.pluginId, config.createdBy)) usable.push(config);
    }
    const found = await this.pending.forRepository(forge, identity.repositoryId);
    // A slug taken since registration is not claimed; the push would refuse it anyway.
    const entry =
      found && matchesIdentity(found, identity) && !found.user?.disabledAt && !(await this.plugins.findBySlug(found.slug)) ? found : null;

    // The repository owner: an owner of the plugin the repository anchors, claimed with proof (once
    // claimed, no pending entry can claim the repository again), else a pending registrant with proof.
    const anchor = this.anchorOf(forge, identity.repository);
    const owner =
      usable.find((config) => config.plugin!.repoVerified && config.plugin!.repoIdentity === anchor)?.createdBy ??
      (entry?.repoVerified ? entry.userId : undefined);
    let userId: string | null = owner ?? usable[0]?.createdBy ?? entry?.userId ?? null;
    const mine = usable.filter((config) => config.createdBy === userId);
    const scopes = mine.flatMap((config) => [
      `publish:${config.plugin!.slug}`,
      ...(config.allowYank ? [`yank:${config.plugin!.slug}`] : []),
    ]);

    let pending: TrustedGrant['pending'] = null;
    if (entry && (userId === null || userId === entry.userId)) {
      userId = entry.userId;
      pending = { id: entry.id, slug: entry.slug };
      scopes.push(`publish:${entry.slug}`);
    }
    if (userId === null) return null;
    return { userId, scopes: [...new Set(scopes)], trustedPublisherIds: mine.map((config) => config.id), pending };
  }

  /** The claim anchor (repo identity) of the CI job's repository on its instance, as a plugin's repoIdentity is written. */
  private anchorOf(forge: string, repository: string): string | null {
    const instance = this.forges.byName(forge);
    const parsed = instance ? parseRepoUrl(`${instance.webUrl}/${repository}`, { forges: this.forges.all() }) : null;
    return parsed?.ok ? parsed.identity : null;
  }
}
