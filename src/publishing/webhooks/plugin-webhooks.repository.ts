import type { DataSource, EntityManager } from 'typeorm';
import { PluginWebhookEntity } from './entities/plugin-webhook.entity';

/** Every query on plugins' sealed webhook secrets. */
export class PluginWebhooksRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PluginWebhookEntity);
  }

  /** The sealed secret (a column never selected otherwise), or null when the plugin has none. */
  async sealedSecret(pluginId: string): Promise<Buffer | null> {
    const row = await this.repo()
      .createQueryBuilder('w')
      .select('w.pluginId')
      .addSelect('w.secretSealed')
      .where('w.pluginId = :pluginId', { pluginId })
      .getOne();
    return row?.secretSealed ?? null;
  }

  async upsert(pluginId: string, secretSealed: Buffer, hookInstalled: boolean, manager?: EntityManager): Promise<void> {
    await this.repo(manager).upsert({ pluginId, secretSealed, hookInstalled }, ['pluginId']);
  }

  async setHookInstalled(pluginId: string, hookInstalled: boolean): Promise<void> {
    await this.repo().update({ pluginId }, { hookInstalled });
  }

  /** Plugins that receive release webhooks (have a secret), for the reconciler. */
  async pluginIds(): Promise<string[]> {
    const rows = await this.repo().find({ select: { pluginId: true }, order: { pluginId: 'ASC' } });
    return rows.map((row) => row.pluginId);
  }
}
