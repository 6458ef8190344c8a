import type { DataSource, EntityManager } from 'typeorm';
import { resolveStoredReadmeLocale } from '../../lib/locale/locale';
import { ReleaseReadmeEntity } from './entities/release-readme.entity';

export interface StoredReadme {
  locale: string;
  html: string;
}

/** A rendered README as stored, with what it was rendered from, so that it can be rendered again. */
export interface ReadmeRendering {
  html: string;
  /** The markdown; null on READMEs stored before it was kept (they can only be sanitized again). */
  markdown: string | null;
  /** Where its relative links resolve (the renderer's ReadmeContextSpec, as JSON); null with `markdown`. */
  context: object | null;
  /** README_RENDER_VERSION of the renderer that produced `html`. */
  renderVersion: number;
}

/** One README an older renderer produced: its key, and what re-rendering it needs. */
export interface StaleReadme {
  releaseId: string;
  locale: string;
  html: string;
  markdown: string | null;
  context: object | null;
  /** md5 of the stored HTML: the re-rendered HTML replaces exactly this, or nothing. */
  digest: string;
}

export type ReadmeKey = Pick<StaleReadme, 'releaseId' | 'locale'>;

/** Every query on release READMEs (one row per release and locale). */
export class ReleaseReadmesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ReleaseReadmeEntity);
  }

  /** Stores a release's READMEs, keeping the order of `byLocale` as the locales' order. */
  async insertForRelease(releaseId: string, byLocale: Record<string, ReadmeRendering>, manager: EntityManager): Promise<void> {
    const rows = Object.entries(byLocale).map(([locale, r], position) => ({
      releaseId,
      locale,
      position,
      html: r.html,
      markdown: r.markdown,
      renderContext: r.context,
      renderVersion: r.renderVersion,
    }));
    if (rows.length > 0) await this.repo(manager).insert(rows);
  }

  /**
   * Replaces a release's READMEs: each of `locales` in that order, as `rendered`, else the row
   * stored for it (a README that could not be read again keeps what it had), else none.
   */
  async replaceForRelease(
    releaseId: string,
    locales: readonly string[],
    rendered: Record<string, ReadmeRendering>,
    manager: EntityManager,
  ): Promise<void> {
    const rows = await this.repo(manager).find({ where: { releaseId } });
    const stored = new Map(
      rows.map((row) => [
        row.locale,
        { html: row.html, markdown: row.markdown, context: row.renderContext, renderVersion: row.renderVersion },
      ]),
    );
    const kept: Record<string, ReadmeRendering> = {};
    for (const locale of locales) {
      const readme = rendered[locale] ?? stored.get(locale);
      if (readme !== undefined) kept[locale] = readme;
    }
    await this.repo(manager).delete({ releaseId });
    await this.insertForRelease(releaseId, kept, manager);
  }

  /** Up to `limit` READMEs rendered before `version`, in key order after `after`: keys only, so a batch stays small. */
  async findStaleKeys(version: number, after: ReadmeKey | null, limit: number): Promise<ReadmeKey[]> {
    const query = this.repo()
      .createQueryBuilder('r')
      .select(['r.releaseId', 'r.locale'])
      .where('r.render_version < :version', { version })
      .orderBy('r.release_id', 'ASC')
      .addOrderBy('r.locale', 'ASC')
      .limit(limit);
    if (after) query.andWhere('(r.release_id, r.locale) > (:releaseId, :locale)', after);
    return (await query.getMany()).map((row) => ({ releaseId: row.releaseId, locale: row.locale }));
  }

  /** One README still rendered before `version`, with its source; null once it is not (or is gone). */
  async findStale(key: ReadmeKey, version: number): Promise<StaleReadme | null> {
    const rows: { html: string; markdown: string | null; render_context: object | null; digest: string }[] = await this.dataSource.query(
      'SELECT html, markdown, render_context, md5(html) AS digest FROM release_readme WHERE release_id = $1 AND locale = $2 AND render_version < $3',
      [key.releaseId, key.locale, version],
    );
    const row = rows[0];
    return row ? { ...key, html: row.html, markdown: row.markdown, context: row.render_context, digest: row.digest } : null;
  }

  /**
   * Stores a re-rendered README, only if the row still holds what was read (`digest`) and is
   * still older than `version`: another instance that got there first, or a refresh that replaced
   * it meanwhile, wins. True when this call wrote it.
   */
  async storeRerendered(stale: StaleReadme, html: string, version: number): Promise<boolean> {
    const result = await this.repo()
      .createQueryBuilder()
      .update()
      .set({ html, renderVersion: version })
      .where('release_id = :releaseId AND locale = :locale AND render_version < :version AND md5(html) = :digest', {
        releaseId: stale.releaseId,
        locale: stale.locale,
        version,
        digest: stale.digest,
      })
      .execute();
    return (result.affected ?? 0) > 0;
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
  async findForLocale(
    releaseId: string,
    requested: string | null | undefined,
    stored?: readonly string[],
    manager?: EntityManager,
  ): Promise<StoredReadme | null> {
    const locale = resolveStoredReadmeLocale(requested, stored ?? (await this.locales(releaseId, manager)));
    return locale === null ? null : this.findExact(releaseId, locale, manager);
  }
}
