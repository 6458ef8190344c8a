import type { DataSource, EntityManager } from 'typeorm';
import { AppSettingEntity } from './entities/app-setting.entity';

/** Operator settings as JSON values by key. */
export class SettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.dataSource.getRepository(AppSettingEntity).findOneBy({ key });
    return row ? (row.value as T) : undefined;
  }

  async set(key: string, value: unknown, manager?: EntityManager): Promise<void> {
    await (manager ?? this.dataSource.manager).query(
      `INSERT INTO app_setting (key, value, updated_at) VALUES ($1, $2::jsonb, now())
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
  }
}
