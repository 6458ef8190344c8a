import type { DataSource, EntityManager } from 'typeorm';
import { type BrandingLink, BrandingEntity } from './entities/branding.entity';

export interface BrandingFields {
  siteName: string | null;
  logoUrl: string | null;
  primaryColor: string | null;
  links: BrandingLink[];
}

const SINGLE_ROW_ID = 1;

/** The one branding row. */
export class BrandingRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(manager?: EntityManager): Promise<BrandingEntity | null> {
    return (manager ?? this.dataSource.manager).getRepository(BrandingEntity).findOneBy({ id: SINGLE_ROW_ID });
  }

  /** Runs `work` in a transaction that holds every other branding change back until it commits. */
  withBrandingLocked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE site_branding IN SHARE ROW EXCLUSIVE MODE');
      return work(manager);
    });
  }

  async save(fields: BrandingFields, manager: EntityManager): Promise<void> {
    await manager.getRepository(BrandingEntity).upsert({ id: SINGLE_ROW_ID, ...fields }, { conflictPaths: ['id'] });
  }
}
