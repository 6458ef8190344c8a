import type { DataSource, EntityManager } from 'typeorm';
import { ForgeNameHistoryEntity } from './entities/forge-name-history.entity';
import { StoredForgeVersionEntity } from './entities/stored-forge-version.entity';
import { StoredForgeEntity } from './entities/stored-forge.entity';

/** A stored instance with its sealed client secret: only the registry's load reads this. */
export type StoredForgeRow = StoredForgeEntity & { clientSecretSealed: Buffer };

export interface StoredForges {
  version: string;
  rows: StoredForgeRow[];
}

/**
 * The forge instances admins added. Every write bumps `forge_instance_version` in its transaction
 * (a trigger, so plain SQL bumps it too); readers compare versions before reloading.
 */
export class StoredForgesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The current version: one primary-key lookup of a one-row table. */
  async version(): Promise<string> {
    const rows: { version: string }[] = await this.dataSource.query('SELECT version FROM forge_instance_version WHERE id = 1');
    return rows[0]?.version ?? '0';
  }

  /**
   * Every stored instance with the version they belong to. The version is read first: a write
   * committed between the two reads leaves the list labelled with the older version, so the next
   * check reloads rather than newer rows hiding under a stale label.
   */
  async load(): Promise<StoredForges> {
    const version = await this.version();
    const rows = await this.dataSource
      .getRepository(StoredForgeEntity)
      .createQueryBuilder('f')
      .addSelect('f.clientSecretSealed')
      .orderBy('f.createdAt', 'ASC')
      .addOrderBy('f.name', 'ASC')
      .getMany();
    return { version, rows: rows as StoredForgeRow[] };
  }

  /**
   * Runs `work` in a transaction holding the version row, so two admins adding instances at once
   * (on any server) check names and URLs one after the other against what the other committed.
   */
  inWriteTransaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await this.lockForWrite(manager);
      return work(manager);
    });
  }

  /** Takes the version row's lock in the caller's transaction (the install wizard's). */
  async lockForWrite(manager: EntityManager): Promise<void> {
    await manager.getRepository(StoredForgeVersionEntity).createQueryBuilder('v').setLock('pessimistic_write').where('v.id = 1').getOne();
  }

  /** The stored instances as the write transaction sees them (no secrets). */
  list(manager: EntityManager): Promise<StoredForgeEntity[]> {
    return manager.getRepository(StoredForgeEntity).find({ order: { createdAt: 'ASC', name: 'ASC' } });
  }

  async insert(row: StoredForgeRow, manager: EntityManager): Promise<void> {
    await manager.getRepository(StoredForgeEntity).insert(row);
  }

  /** True when a row was removed. */
  async remove(name: string, manager: EntityManager): Promise<boolean> {
    const result = await manager.getRepository(StoredForgeEntity).delete({ name });
    return (result.affected ?? 0) > 0;
  }

  /** The web URL an added instance of this name last stood for (kept after removal), or null. */
  async recordedWebUrl(name: string, manager: EntityManager): Promise<string | null> {
    const row = await manager.getRepository(ForgeNameHistoryEntity).findOneBy({ name });
    return row?.webUrl ?? null;
  }

  /** Records (or moves, when no account used the name) which web URL the name stands for. */
  async recordName(name: string, webUrl: string, at: Date, manager: EntityManager): Promise<void> {
    await manager.getRepository(ForgeNameHistoryEntity).upsert({ name, webUrl, recordedAt: at }, ['name']);
  }

  /** Removes every stored instance (the install wizard's PUT replaces its list). */
  async removeAll(manager: EntityManager): Promise<string[]> {
    const names = (await this.list(manager)).map((row) => row.name);
    if (names.length > 0) await manager.getRepository(StoredForgeEntity).delete(names);
    return names;
  }
}
