import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { KindEntity } from './entities/kind.entity';

export type KindFields = Pick<KindEntity, 'label' | 'description' | 'enabled' | 'extensionFields' | 'requireProvenance'>;

/** Every query on kinds. */
export class KindsRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(KindEntity);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  all(): Promise<KindEntity[]> {
    return this.repo().find({ order: { key: 'ASC' } });
  }

  /** Every kind, read through `manager` (a catalogue read's replica). */
  allIn(manager: EntityManager): Promise<KindEntity[]> {
    return this.repo(manager).find({ order: { key: 'ASC' } });
  }

  enabled(manager?: EntityManager): Promise<KindEntity[]> {
    return this.repo(manager).find({ where: { enabled: true }, order: { key: 'ASC' } });
  }

  /** The kind, its row locked until the transaction ends so concurrent edits queue. */
  findForUpdate(key: string, manager: EntityManager): Promise<KindEntity | null> {
    return this.repo(manager).findOne({ where: { key }, lock: { mode: 'pessimistic_write' } });
  }

  /** Inserts unless the key exists; returns null when it does (the primary key decides races). */
  async insert(key: string, fields: KindFields, manager: EntityManager): Promise<KindEntity | null> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO kind (key, label, description, enabled, extension_fields, require_provenance) VALUES ($1, $2, $3, $4, $5::jsonb, $6)
       ON CONFLICT (key) DO NOTHING RETURNING key`,
      [key, fields.label, fields.description, fields.enabled, JSON.stringify(fields.extensionFields), fields.requireProvenance],
    );
    return rows.length ? this.repo(manager).findOneByOrFail({ key }) : null;
  }

  /** Writes the given fields only; an empty change writes nothing. */
  async update(key: string, fields: Partial<KindFields>, manager: EntityManager): Promise<KindEntity> {
    // jsonb columns are free-form JSON, which TypeORM's deep-partial type cannot express.
    if (Object.keys(fields).length > 0) await this.repo(manager).update({ key }, fields as QueryDeepPartialEntity<KindEntity>);
    return this.repo(manager).findOneByOrFail({ key });
  }

  /** Whether releases of `key` must carry verified provenance (false for an unknown kind). */
  async requiresProvenance(key: string): Promise<boolean> {
    return (await this.repo().findOne({ where: { key }, select: { key: true, requireProvenance: true } }))?.requireProvenance ?? false;
  }

  async delete(key: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ key });
  }
}
