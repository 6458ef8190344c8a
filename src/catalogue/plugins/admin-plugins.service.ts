import { Injectable } from '@nestjs/common';
import { TransparencyLog } from '../../trust/transparency-log/transparency-log';
import { DataSource, type EntityManager } from 'typeorm';
import { type AuditActor, AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { badRequest, conflict, notFound } from '../../common/errors/domain-error';
import type { AdminPluginDto, ChangeOwnersDto } from './dto/admin-plugin.dto';
import { toAdminPluginDto } from './admin-plugin.mapper';
import { CatalogueListing } from './catalogue-listing';
import type { PluginEntity } from './entities/plugin.entity';
import type { StoredReleaseImages } from './entities/release.entity';
import { PluginsRepository } from './plugins.repository';
import { type ReadmeRendering, ReleaseReadmesRepository } from './release-readmes.repository';
import { ReleasesRepository } from './releases.repository';
import { UsersRepository } from '../../platform/users/users.repository';
import { versionKey } from './versions';

/** A manifest read again for one release (Refresh manifest), with its README rendered again. */
export interface RefreshedManifest {
  releaseId: string;
  version: string;
  /** The manifest's spec fields and declared extension values, as validated. */
  manifest: Record<string, unknown>;
  extensions: Record<string, unknown> | null;
  /** Every locale the manifest names a README for, and those that rendered. */
  readme: { locales: string[]; rendered: Record<string, ReadmeRendering> };
  /** The icon and screenshots fetched again (their encodings are stored already, by hash). */
  images: StoredReleaseImages;
  details: Record<string, unknown>;
}

/**
 * What admins do to a plugin: verify, feature, delete a release, change its owners. Each change
 * runs in one transaction with the plugin's row locked and is audited in it.
 */
@Injectable()
export class AdminPluginsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly listing: CatalogueListing,
    private readonly readmes: ReleaseReadmesRepository,
    private readonly audit: AuditService,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
    private readonly log: TransparencyLog,
  ) {}

  async view(slug: string): Promise<AdminPluginDto> {
    const plugin = await this.plugins.findBySlug(slug);
    if (!plugin) throw notFound(`no plugin "${slug}"`);
    return toAdminPluginDto(plugin, await this.plugins.owners(plugin.id));
  }

  setVerified(slug: string, verified: boolean, actor: AuditActor & { userId: string }): Promise<AdminPluginDto> {
    return this.change(slug, async (plugin, manager) => {
      await this.plugins.setVerified(plugin.id, verified ? this.clock.now() : null, verified ? actor.userId : null, manager);
      await this.audit.record({ action: verified ? 'plugin.verify' : 'plugin.unverify', actor, slug }, manager);
    });
  }

  setFeatured(slug: string, featured: boolean, actor: AuditActor): Promise<AdminPluginDto> {
    return this.change(slug, async (plugin, manager) => {
      await this.plugins.setFeatured(plugin.id, featured, manager);
      await this.audit.record({ action: featured ? 'plugin.feature' : 'plugin.unfeature', actor, slug }, manager);
    });
  }

  /**
   * Deletes one release and moves the latest pointers. Publishing the same version again then
   * ingests it afresh: new hashes and a new JWS (clients that cached the old one see a mismatch).
   */
  async deleteRelease(slug: string, version: string, actor: AuditActor): Promise<void> {
    await this.mutate(slug, async (plugin, manager) => {
      const release = await this.releases.findByVersionKey(plugin.id, versionKey(version), manager);
      if (!release) throw notFound(`no release ${version} of "${slug}"`);
      await this.releases.delete(release.id, manager);
      await this.listing.recompute(plugin.id, manager);
      await this.audit.record(
        { action: 'release.delete', actor, slug, details: { version: release.version, kid: release.integrity?.kid ?? null } },
        manager,
      );
      // Logged like a yank, last (the log's tail lock is held to commit): a release that vanishes
      // without an entry would look to every monitor like one the registry hid, and `latest`
      // stepping back would look to a client like a rollback.
      const index = await this.log.append({ type: 'delete', slug: plugin.slug, version: release.version }, manager);
      await this.plugins.advanceLogSize(plugin.id, index, manager);
    });
  }

  /**
   * Writes a re-read manifest onto the release it was read for: what the catalogue shows of it
   * (never the slug, never what was signed) and its README, re-rendered; then the catalogue fields
   * follow (they move only if that release is the one shown). Audited plugin.manifest_refresh.
   */
  applyRefreshedManifest(slug: string, refreshed: RefreshedManifest, actor: AuditActor): Promise<AdminPluginDto> {
    return this.change(slug, async (plugin, manager) => {
      const release = await this.releases.findByVersionKey(plugin.id, versionKey(refreshed.version), manager);
      if (release?.id !== refreshed.releaseId)
        throw conflict('release-changed', `release ${refreshed.version} of "${slug}" was deleted meanwhile; refresh again`);
      await this.releases.setCatalogueManifest(release.id, refreshed.manifest, refreshed.extensions, manager);
      await this.readmes.replaceForRelease(release.id, refreshed.readme.locales, refreshed.readme.rendered, manager);
      await this.releases.setImages(release.id, refreshed.images, manager);
      await this.listing.recompute(plugin.id, manager);
      await this.audit.record({ action: 'plugin.manifest_refresh', actor, slug, details: refreshed.details }, manager);
    });
  }

  /** Adds and removes owners, or transfers to one; a plugin always keeps at least one owner. */
  changeOwners(slug: string, input: ChangeOwnersDto, actor: AuditActor): Promise<AdminPluginDto> {
    if (input.transfer && (input.add?.length || input.remove?.length)) {
      throw badRequest('validation-failed', 'transfer replaces every owner; send it alone', [
        { path: '/transfer', message: 'transfer: cannot be combined with add or remove' },
      ]);
    }
    return this.changeOwnership(slug, async (plugin, manager) => {
      const before = (await this.plugins.owners(plugin.id, manager)).map((o) => o.userId);
      const add = input.transfer ? [input.transfer] : (input.add ?? []);
      const remove = input.transfer ? before.filter((id) => id !== input.transfer) : (input.remove ?? []);
      const unknown = await this.unknownUsers(add, manager);
      if (unknown.length)
        throw badRequest(
          'validation-failed',
          'every new owner must be a user',
          unknown.map((id) => ({ path: input.transfer ? '/transfer' : '/add', message: `no user ${id}` })),
        );
      await this.plugins.addOwners(plugin.id, add, manager);
      await this.plugins.removeOwners(plugin.id, remove, manager);
      const after = (await this.plugins.owners(plugin.id, manager)).map((o) => o.userId);
      if (after.length === 0) throw conflict('last-owner', 'a plugin must keep at least one owner');
      await this.audit.record({ action: 'plugin.owners_change', actor, slug, details: { before, after } }, manager);
    });
  }

  private async unknownUsers(ids: readonly string[], manager: EntityManager): Promise<string[]> {
    const known = await this.users.existingIds(ids, manager);
    return ids.filter((id) => !known.has(id));
  }

  /** Like `change`, with the ownership rows locked instead of the plugin row (see lockOwners). */
  private async changeOwnership(
    slug: string,
    work: (plugin: PluginEntity, manager: EntityManager) => Promise<void>,
  ): Promise<AdminPluginDto> {
    await this.dataSource.transaction(async (manager) => {
      const plugin = await this.plugins.findBySlug(slug, manager);
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      await this.plugins.lockOwners(plugin.id, manager);
      await work(plugin, manager);
    });
    return this.view(slug);
  }

  /** A change in one transaction with the plugin's row locked. */
  private mutate(slug: string, work: (plugin: PluginEntity, manager: EntityManager) => Promise<void>): Promise<void> {
    return this.dataSource.transaction(async (manager) => {
      const plugin = await this.plugins.findBySlugForUpdate(slug, manager);
      if (!plugin) throw notFound(`no plugin "${slug}"`);
      await work(plugin, manager);
    });
  }

  /** A change, then the plugin as admins see it. */
  private async change(slug: string, work: (plugin: PluginEntity, manager: EntityManager) => Promise<void>): Promise<AdminPluginDto> {
    await this.mutate(slug, work);
    return this.view(slug);
  }
}
