import type { DataSource, EntityManager } from 'typeorm';
import { AppSettingEntity } from './entities/app-setting.entity';
import { SettingsVersionEntity } from './entities/settings-version.entity';

/** What one load of the settings saw: the stored values by key and the version they belong to. */
export interface StoredSettings {
  version: string;
  values: Map<string, unknown>;
}

/**
 * Operator settings as JSON values by key. Every write to `app_setting` bumps `settings_version`
 * in the same transaction (a trigger, so no writer can forget); readers compare versions.
 */
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private manager(manager?: EntityManager): EntityManager {
    return manager ?? this.dataSource.manager;
  }

  /** One stored value, raw. Only for keys kept outside the typed registry (`extension_fields.global`). */
  async get<T>(key: string, manager?: EntityManager): Promise<T | undefined> {
    const row = await this.manager(manager).getRepository(AppSettingEntity).findOneBy({ key });
    return row ? (row.value as T) : undefined;
  }

  async set(key: string, value: unknown, manager?: EntityManager): Promise<void> {
    await this.manager(manager).query(
      `INSERT INTO app_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
  }

  /** The current version: one primary-key lookup of a one-row table. */
  async version(manager?: EntityManager): Promise<string> {
    const rows: { version: string }[] = await this.manager(manager).query('SELECT version FROM settings_version WHERE id = 1');
    return rows[0]?.version ?? '0';
  }

  /**
   * Every stored value with the version they belong to. The version is read first: a write
   * committed between the two reads leaves the snapshot labelled with the older version, so the
   * next read reloads, rather than newer values hiding under a stale label.
   */
  async load(): Promise<StoredSettings> {
    const version = await this.version();
    const rows = await this.dataSource.getRepository(AppSettingEntity).find();
    return { version, values: new Map(rows.map((row) => [row.key, row.value])) };
  }

  /**
   * Runs `work` in a transaction holding the version row, so concurrent setting changes apply
   * one after the other and each sees the values the previous one left.
   */
  inWriteTransaction<T>(work: (manager: EntityManager, values: Map<string, unknown>) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.getRepository(SettingsVersionEntity).createQueryBuilder('v').setLock('pessimistic_write').where('v.id = 1').getOne();
      const rows = await manager.getRepository(AppSettingEntity).find();
      return work(manager, new Map(rows.map((row) => [row.key, row.value])));
    });
  }
}
