import type { DataSource, EntityManager } from 'typeorm';
import { SiteLanguagesEntity } from './entities/site-languages.entity';

export interface SiteLanguages {
  defaultLocale: string;
  locales: string[];
}

const SINGLE_ROW_ID = 1;

/** The one row of site languages. */
export class I18nRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(manager?: EntityManager): Promise<SiteLanguagesEntity | null> {
    return (manager ?? this.dataSource.manager).getRepository(SiteLanguagesEntity).findOneBy({ id: SINGLE_ROW_ID });
  }

  /** Runs `work` in a transaction that holds every other language change back until it commits. */
  withLanguagesLocked<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('LOCK TABLE site_languages IN SHARE ROW EXCLUSIVE MODE');
      return work(manager);
    });
  }

  async save(languages: SiteLanguages, manager: EntityManager): Promise<void> {
    await manager.getRepository(SiteLanguagesEntity).upsert({ id: SINGLE_ROW_ID, ...languages }, { conflictPaths: ['id'] });
  }
}
