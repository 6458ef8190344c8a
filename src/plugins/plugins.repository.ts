import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { PluginOwnerEntity } from './entities/plugin-owner.entity';
import { PluginEntity } from './entities/plugin.entity';

export type NewPlugin = Pick<PluginEntity, 'slug' | 'name' | 'repoUrl' | 'repoIdentity'>;
export type PluginCatalogueFields = Pick<
  PluginEntity,
  'name' | 'description' | 'category' | 'kind' | 'tags' | 'license' | 'icon' | 'metadata' | 'extensions' | 'latestVersion' | 'latestReleaseAt'
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

  async isOwner(pluginId: string, userId: string): Promise<boolean> {
    return this.dataSource.getRepository(PluginOwnerEntity).exists({ where: { pluginId, userId } });
  }

  findByRepoIdentity(repoIdentity: string): Promise<PluginEntity | null> {
    return this.repo().findOneBy({ repoIdentity });
  }


  /** Creates the plugin and its first owner; unique constraints decide concurrent claims. */
  async insertClaimed(plugin: NewPlugin, ownerId: string, manager: EntityManager): Promise<PluginEntity> {
    const repo = this.repo(manager);
    const saved = await repo.save(repo.create({ ...plugin, tags: [], metadata: {}, extensions: null }));
    await manager.getRepository(PluginOwnerEntity).insert({ pluginId: saved.id, userId: ownerId });
    return saved;
  }

  async updateCatalogue(pluginId: string, fields: Partial<PluginCatalogueFields>, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id: pluginId }, fields as QueryDeepPartialEntity<PluginEntity>);
  }

  async countDownload(pluginId: string): Promise<void> {
    await this.repo().increment({ id: pluginId }, 'downloads', 1);
  }
}
