import type { DataSource, EntityManager } from 'typeorm';
import { resolveStoredReadmeLocale } from '../lib/locale/locale';
import { ReleaseReadmeEntity } from './entities/release-readme.entity';

export interface StoredReadme {
  locale: string;
  html: string;
}

/** Every query on release READMEs (one row per release and locale). */
export class ReleaseReadmesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ReleaseReadmeEntity);
  }

  /** Stores a release's READMEs, keeping the order of `htmlByLocale` as the locales' order. */
  async insertForRelease(releaseId: string, htmlByLocale: Record<string, string>, manager: EntityManager): Promise<void> {
    const rows = Object.entries(htmlByLocale).map(([locale, html], position) => ({ releaseId, locale, position, html }));
    if (rows.length > 0) await this.repo(manager).insert(rows);
  }

  /**
   * Replaces a release's READMEs: each of `locales` in that order, its `rendered` HTML, else the
   * row stored for it (a README that could not be read again keeps what it had), else none.
   */
  async replaceForRelease(releaseId: string, locales: readonly string[], rendered: Record<string, string>, manager: EntityManager): Promise<void> {
    const stored = await this.htmlByLocale(releaseId, manager);
    const kept: Record<string, string> = {};
    for (const locale of locales) {
      const html = rendered[locale] ?? stored[locale];
      if (html !== undefined) kept[locale] = html;
    }
    await this.repo(manager).delete({ releaseId });
    await this.insertForRelease(releaseId, kept, manager);
  }

  /** A release's README HTML by locale, in the stored order. */
  async htmlByLocale(releaseId: string, manager?: EntityManager): Promise<Record<string, string>> {
    const rows = await this.repo(manager).find({ select: { locale: true, html: true }, where: { releaseId }, order: { position: 'ASC' } });
    return Object.fromEntries(rows.map((row) => [row.locale, row.html]));
  }

  /** The locales a release has a README in, in the manifest's order (`default` last when present). */
  async locales(releaseId: string, manager?: EntityManager): Promise<string[]> {
    const rows = await this.repo(manager).find({ select: { locale: true }, where: { releaseId }, order: { position: 'ASC' } });
    return rows.map((row) => row.locale);
  }

  /** The README in exactly this locale, or null. */
  async findExact(releaseId: string, locale: string, manager?: EntityManager): Promise<StoredReadme | null> {
    const row = await this.repo(manager).findOne({ select: { locale: true, html: true }, where: { releaseId, locale } });
    return row ? { locale: row.locale, html: row.html } : null;
  }

  /**
   * The README to show a reader asking for `requested` (an Accept-Language tag or a `?locale=`):
   * exact locale, then base language, then `en`, then `default`, then the first available
   * (resolveStoredReadmeLocale). Null when the release has no README. `stored` is the release's
   * locales when the caller has read them already.
   */
  async findForLocale(releaseId: string, requested: string | null | undefined, stored?: readonly string[], manager?: EntityManager): Promise<StoredReadme | null> {
    const locale = resolveStoredReadmeLocale(requested, stored ?? (await this.locales(releaseId, manager)));
    return locale === null ? null : this.findExact(releaseId, locale, manager);
  }
}
