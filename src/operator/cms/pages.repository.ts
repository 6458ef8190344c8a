import type { DataSource, EntityManager } from 'typeorm';
import { PageEntity } from './entities/page.entity';

export type PageContent = Pick<PageEntity, 'title' | 'markdown' | 'html' | 'published'>;
export type NewPage = Pick<PageEntity, 'slug' | 'locale'> & PageContent;

/** Every query on CMS pages. */
export class PagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(PageEntity);
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  all(): Promise<PageEntity[]> {
    return this.repo().find({ order: { slug: 'ASC', locale: 'ASC' } });
  }

  /** The published translations of one page. */
  published(slug: string): Promise<PageEntity[]> {
    return this.repo().find({ where: { slug, published: true }, order: { locale: 'ASC' } });
  }

  /** The page in one locale, locked until the transaction ends. */
  findForUpdate(slug: string, locale: string, manager: EntityManager): Promise<PageEntity | null> {
    return this.repo(manager).findOne({ where: { slug, locale }, lock: { mode: 'pessimistic_write' } });
  }

  /** Inserts the page; null when that (slug, locale) exists already, decided by the unique index. */
  async insert(page: NewPage, manager: EntityManager): Promise<PageEntity | null> {
    const result = await this.repo(manager)
      .createQueryBuilder()
      .insert()
      .into(PageEntity)
      .values(page)
      .orIgnore()
      .returning(['id'])
      .execute();
    const id = (result.raw as { id: string }[])[0]?.id;
    return id ? this.repo(manager).findOneByOrFail({ id }) : null;
  }

  async update(id: string, content: PageContent, manager: EntityManager): Promise<PageEntity> {
    await this.repo(manager).update({ id }, content);
    return this.repo(manager).findOneByOrFail({ id });
  }

  async delete(id: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id });
  }
}
