import { Injectable } from '@nestjs/common';
import type { CiIdentity } from '../forges/forge-adapter';
import { PluginsRepository } from '../plugins/plugins.repository';
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
 * several users match, the oldest publisher's user is chosen and the others are left out.
 */
@Injectable()
export class TrustedGrants {
  constructor(
    private readonly publishers: TrustedPublishersRepository,
    private readonly pending: PendingPublishersRepository,
    private readonly plugins: PluginsRepository,
  ) {}

  async grantFor(forge: string, identity: CiIdentity): Promise<TrustedGrant | null> {
    const usable = [];
    for (const config of await this.publishers.forRepository(forge, identity.repositoryId)) {
      if (!matchesIdentity(config, identity) || config.creator?.disabledAt) continue;
      if (await this.plugins.isOwner(config.pluginId, config.createdBy)) usable.push(config);
    }
    let userId: string | null = usable[0]?.createdBy ?? null;
    const mine = usable.filter((config) => config.createdBy === userId);
    const scopes = mine.flatMap((config) => [`publish:${config.plugin!.slug}`, ...(config.allowYank ? [`yank:${config.plugin!.slug}`] : [])]);

    let pending: TrustedGrant['pending'] = null;
    const entry = await this.pending.forRepository(forge, identity.repositoryId);
    // A slug taken since registration is not claimed; the push would refuse it anyway.
    if (entry && matchesIdentity(entry, identity) && !entry.user?.disabledAt && (userId === null || userId === entry.userId) && !(await this.plugins.findBySlug(entry.slug))) {
      userId = entry.userId;
      pending = { id: entry.id, slug: entry.slug };
      scopes.push(`publish:${entry.slug}`);
    }
    if (userId === null) return null;
    return { userId, scopes: [...new Set(scopes)], trustedPublisherIds: mine.map((config) => config.id), pending };
  }
}
