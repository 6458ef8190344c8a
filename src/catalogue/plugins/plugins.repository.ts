import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PluginOwnerEntity } from './entities/plugin-owner.entity';
import { PluginEntity } from './entities/plugin.entity';

export type NewPlugin = Pick<PluginEntity, 'slug' | 'name' | 'repoUrl' | 'repoIdentity' | 'repoVerified'>;
export type PluginCatalogueFields = Pick<
  PluginEntity,
  | 'name'
  | 'description'
  | 'category'
  | 'kind'
  | 'tags'
  | 'license'
  | 'icon'
  | 'iconImage'
  | 'metadata'
  | 'extensions'
  | 'latestVersion'
  | 'latestPrerelease'
  | 'latestReleaseAt'
  | 'searchReadme'
>;

/** Every query on plugins and their owners. */
export class PluginsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PluginEntity);
  }

  findBySlug(slug: string, manager?: EntityManager): Promise<PluginEntity | null> {
    return this.repo(manager).findOneBy({ slug });
  }

  findById(id: string, manager?: EntityManager): Promise<PluginEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  /** The plugins the user owns, by slug. */
  ownedBy(userId: string, manager?: EntityManager): Promise<PluginEntity[]> {
    return this.repo(manager)
      .createQueryBuilder('p')
      .innerJoin(PluginOwnerEntity, 'o', 'o.plugin_id = p.id AND o.user_id = :userId', { userId })
      .orderBy('p.slug', 'ASC')
      .getMany();
  }

  async isOwner(pluginId: string, userId: string, manager?: EntityManager): Promise<boolean> {
    return (manager ?? this.dataSource.manager).getRepository(PluginOwnerEntity).exists({ where: { pluginId, userId } });
  }

  /**
   * Whether the user owns the plugin, holding the ownership row until the transaction ends, so a
   * transfer that removes it waits for the release being recorded (and vice versa).
   */
  async isOwnerLocked(pluginId: string, userId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query('SELECT 1 FROM plugin_owner WHERE plugin_id = $1 AND user_id = $2 FOR SHARE', [
      pluginId,
      userId,
    ]);
    return rows.length > 0;
  }

  findByRepoIdentity(repoIdentity: string, manager?: EntityManager): Promise<PluginEntity | null> {
    return this.repo(manager).findOneBy({ repoIdentity });
  }

  /** Creates the plugin and its first owner; unique constraints decide concurrent claims. */
  async insertClaimed(plugin: NewPlugin, ownerId: string, manager: EntityManager): Promise<PluginEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create({ ...plugin, tags: [], metadata: {}, extensions: null }));
    await manager.getRepository(PluginOwnerEntity).insert({ pluginId: saved.id, userId: ownerId });
    return saved;
  }

  /**
   * A mirror's copy of an upstream plugin (MIRROR_OF): no owner on this instance (nobody here may
   * publish to it), and upstream's public verification, feature and deprecation fields.
   */
  async upsertMirrored(
    plugin: NewPlugin & Pick<PluginEntity, 'featured' | 'verifiedAt' | 'deprecatedAt' | 'deprecationMessage' | 'deprecatedReplacement'>,
    manager: EntityManager,
  ): Promise<PluginEntity> {
    const repo = this.repo(manager);
    const existing = await repo.findOne({ where: { slug: plugin.slug }, lock: { mode: 'pessimistic_write' } });
    if (existing) {
      const { slug: _slug, name: _name, ...fields } = plugin;
      await repo.update({ id: existing.id }, fields);
      return { ...existing, ...fields };
    }
    return repo.save(repo.create({ ...plugin, tags: [], metadata: {}, extensions: null }));
  }

  /** Deletes a plugin with its releases (a mirror following an upstream deletion). */
  async deleteBySlug(slug: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ slug });
  }

  /** Owners with who they are, oldest first. */
  async owners(pluginId: string, manager?: EntityManager): Promise<{ userId: string; login: string; instance: string }[]> {
    const rows: { user_id: string; login: string; instance: string }[] = await (manager ?? this.dataSource.manager).query(
      `SELECT o.user_id, u.login, u.instance FROM plugin_owner o JOIN user_account u ON u.id = o.user_id WHERE o.plugin_id = $1 ORDER BY o.created_at, u.login`,
      [pluginId],
    );
    return rows.map((row) => ({ userId: row.user_id, login: row.login, instance: row.instance }));
  }

  /** The plugin's row, locked until the transaction ends, so admin changes to it queue. */
  findBySlugForUpdate(slug: string, manager: EntityManager): Promise<PluginEntity | null> {
    return this.repo(manager).findOne({ where: { slug }, lock: { mode: 'pessimistic_write' } });
  }

  /**
   * The plugins' rows, locked until the transaction ends, taken in slug order so two transactions
   * locking the same pair (A deprecated for B, B for A) queue instead of deadlocking. A locking
   * read returns each row as the transaction that held it last committed it.
   */
  findBySlugsForUpdate(slugs: readonly string[], manager: EntityManager): Promise<PluginEntity[]> {
    return this.repo(manager)
      .createQueryBuilder('p')
      .where('p.slug IN (:...slugs)', { slugs: [...new Set(slugs)] })
      .orderBy('p.slug', 'ASC')
      .setLock('pessimistic_write')
      .getMany();
  }

  /** Whether the user is an admin who does not own the plugin (a deprecation they set is theirs to change). */
  async isAdminNotOwner(pluginId: string, userId: string, manager: EntityManager): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `SELECT 1 FROM user_account u WHERE u.id = $2 AND u.role = 'admin' AND NOT EXISTS (SELECT 1 FROM plugin_owner o WHERE o.plugin_id = $1 AND o.user_id = u.id)`,
      [pluginId, userId],
    );
    return rows.length > 0;
  }

  /**
   * Locks the plugin's ownership rows until the transaction ends. Owner changes lock these and not
   * the plugin row: a publish holds its owner row and then writes the plugin row, so taking the
   * two in the other order could deadlock with it.
   */
  async lockOwners(pluginId: string, manager: EntityManager): Promise<void> {
    await manager.query('SELECT 1 FROM plugin_owner WHERE plugin_id = $1 FOR UPDATE', [pluginId]);
  }

  async setVerified(pluginId: string, verifiedAt: Date | null, verifiedBy: string | null, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id: pluginId }, { verifiedAt, verifiedBy });
  }

  /** Marks the plugin deprecated (null: undoes it); the catalogue_change trigger logs it for every instance's index. */
  async setDeprecation(
    pluginId: string,
    mark: { at: Date; message: string; replacement: string | null; by: string } | null,
    manager: EntityManager,
  ): Promise<void> {
    await this.repo(manager).update(
      { id: pluginId },
      {
        deprecatedAt: mark?.at ?? null,
        deprecationMessage: mark?.message ?? null,
        deprecatedReplacement: mark?.replacement ?? null,
        deprecatedBy: mark?.by ?? null,
      },
    );
  }

  async setFeatured(pluginId: string, featured: boolean, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id: pluginId }, { featured });
  }

  async addOwners(pluginId: string, userIds: readonly string[], manager: EntityManager): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(`INSERT INTO plugin_owner (plugin_id, user_id) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`, [
      pluginId,
      [...userIds],
    ]);
  }

  async removeOwners(pluginId: string, userIds: readonly string[], manager: EntityManager): Promise<void> {
    if (userIds.length === 0) return;
    await manager.query(`DELETE FROM plugin_owner WHERE plugin_id = $1 AND user_id = ANY($2::uuid[])`, [pluginId, [...userIds]]);
  }

  /**
   * Holds the plugin's row until the transaction ends, so what is shown is computed from every
   * release committed before it. FOR NO KEY UPDATE, not FOR UPDATE: a release being inserted holds
   * the row FOR KEY SHARE (its foreign key), which this does not wait for, so two publishes of one
   * plugin queue here instead of deadlocking.
   */
  async lockForCatalogue(pluginId: string, manager: EntityManager): Promise<void> {
    await manager.query('SELECT 1 FROM plugin WHERE id = $1 FOR NO KEY UPDATE', [pluginId]);
  }

  /** After a log entry about the plugin at `index` (a release, yank, unyank or delete): its freshness statements name the log to there. */
  async advanceLogSize(pluginId: string, index: number, manager: EntityManager): Promise<void> {
    await manager.query('UPDATE plugin SET log_size = greatest(log_size, $2) WHERE id = $1', [pluginId, index + 1]);
  }

  async updateCatalogue(pluginId: string, fields: Partial<PluginCatalogueFields>, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id: pluginId }, fields as QueryDeepPartialEntity<PluginEntity>);
  }
}
