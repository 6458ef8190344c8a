import type { DataSource, EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { ReleaseEntity, type StoredIntegrity, type StoredReleaseImages } from './entities/release.entity';

export type NewRelease = Omit<ReleaseEntity, 'id' | 'createdAt' | 'plugin' | 'yankedAt' | 'yankReason' | 'downloads' | 'logIndex'>;

/** Downloads of one release counted on one UTC day (`YYYY-MM-DD`). */
export interface DownloadCount {
  releaseId: string;
  day: string;
  n: number;
}

/** The live (unyanked) releases a plugin's "latest" pointers follow. */
export interface LatestVersions {
  /** The SemVer-highest live release that is not a prerelease. */
  stable: string | null;
  /** The SemVer-highest live prerelease above `stable` (any, when there is no stable release). */
  prerelease: string | null;
}

/** Every query on releases. */
export class ReleasesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(manager?: EntityManager) {
    return (manager ?? this.dataSource.manager).getRepository(ReleaseEntity);
  }

  findByVersionKey(pluginId: string, versionKey: string, manager?: EntityManager): Promise<ReleaseEntity | null> {
    return this.repo(manager).findOneBy({ pluginId, versionKey });
  }

  /** Every version key the plugin has a release for (yanked ones included). */
  async versionKeys(pluginId: string): Promise<Set<string>> {
    const rows = await this.repo().find({ select: { versionKey: true }, where: { pluginId } });
    return new Set(rows.map((row) => row.versionKey));
  }

  /**
   * The one "latest" rule (docs/decisions.md#catalogue-search-detail-and-the-latest-release):
   * highest SemVer precedence, not yanked, no prerelease unless asked. `version_sort` orders bytes
   * as SemVer orders versions, so this is an index scan.
   */
  findLatest(
    pluginId: string,
    options: { prerelease?: boolean; yanked?: boolean } = {},
    manager?: EntityManager,
  ): Promise<ReleaseEntity | null> {
    const query = this.repo(manager)
      .createQueryBuilder('r')
      .where('r.plugin_id = :pluginId', { pluginId })
      .orderBy('r.version_sort', 'DESC')
      .limit(1);
    if (!options.yanked) query.andWhere('r.yanked_at IS NULL');
    if (!options.prerelease) query.andWhere('r.prerelease = false');
    return query.getOne();
  }

  /**
   * The latest release of the plugin with this slug, by findLatest's rule, with its plugin (the
   * relation set), in one statement: one snapshot, so the plugin's log position is the one that
   * answer belongs with (a freshness statement names both). Null when the plugin has no such
   * release, or there is no such plugin.
   */
  findLatestWithPlugin(slug: string, options: { prerelease?: boolean } = {}, manager?: EntityManager): Promise<ReleaseEntity | null> {
    const query = this.repo(manager)
      .createQueryBuilder('r')
      .innerJoinAndSelect('r.plugin', 'p')
      .where('p.slug = :slug', { slug })
      .andWhere('r.yanked_at IS NULL')
      .orderBy('r.version_sort', 'DESC')
      .limit(1);
    if (!options.prerelease) query.andWhere('r.prerelease = false');
    return query.getOne();
  }

  /**
   * The release the catalogue describes (name, description, tags, extension values, metadata,
   * README): the latest by the same rule, a prerelease only when no stable release is live; when
   * every release is yanked, the one that rule picks among the yanked. Null without releases.
   */
  async findShown(pluginId: string, manager?: EntityManager): Promise<ReleaseEntity | null> {
    for (const options of [{}, { prerelease: true }, { yanked: true }, { yanked: true, prerelease: true }]) {
      const release = await this.findLatest(pluginId, options, manager);
      if (release) return release;
    }
    return null;
  }

  async latestVersions(pluginId: string, manager?: EntityManager): Promise<LatestVersions> {
    const stable = await this.findLatest(pluginId, {}, manager);
    const newest = await this.findLatest(pluginId, { prerelease: true }, manager);
    return { stable: stable?.version ?? null, prerelease: newest?.prerelease ? newest.version : null };
  }

  /** Every release of a plugin, SemVer-highest first. */
  listForPlugin(pluginId: string, manager?: EntityManager): Promise<ReleaseEntity[]> {
    return this.repo(manager).find({ where: { pluginId }, order: { versionSort: 'DESC' } });
  }

  async insert(release: NewRelease, manager: EntityManager): Promise<ReleaseEntity> {
    const repo = this.repo(manager);
    const result = await repo.insert(release as QueryDeepPartialEntity<ReleaseEntity>);
    return (await repo.findOneBy({ id: result.identifiers[0].id as string }))!;
  }

  /** What the catalogue shows of a release's manifest (Refresh manifest); the signed manifest stays. */
  async setCatalogueManifest(
    id: string,
    manifest: Record<string, unknown>,
    extensions: Record<string, unknown> | null,
    manager: EntityManager,
  ): Promise<void> {
    await this.repo(manager).update({ id }, { manifest, extensions } as QueryDeepPartialEntity<ReleaseEntity>);
  }

  /** The release's served icon and screenshots, fetched again (an admin's Refresh manifest). */
  async setImages(id: string, images: StoredReleaseImages, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { images } as QueryDeepPartialEntity<ReleaseEntity>);
  }

  /** Signed releases whose signature names none of `kids` (a mirror's copies an upstream key-set change left behind). */
  async signedByNoneOf(kids: readonly string[]): Promise<{ id: string; slug: string; version: string; kid: string }[]> {
    return this.dataSource.query(
      `SELECT r.id, p.slug, r.version, r.integrity->>'kid' AS kid FROM release r JOIN plugin p ON p.id = r.plugin_id
        WHERE r.integrity IS NOT NULL AND NOT (r.integrity->>'kid' = ANY($1::text[])) ORDER BY r.created_at`,
      [kids],
    );
  }

  /** Replaces a release's stored signature (a mirror copying upstream's re-signing). */
  async setIntegrity(id: string, integrity: StoredIntegrity, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { integrity } as QueryDeepPartialEntity<ReleaseEntity>);
  }

  /**
   * Names the transparency-log entry of the signature the release carries (its publish's, or its
   * latest re-signing's; on a mirror, upstream's entry). Null: none (a mirror's upstream names none).
   */
  async setLogIndex(id: string, logIndex: number | null, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { logIndex: logIndex === null ? null : String(logIndex) });
  }

  async setYanked(id: string, yankedAt: Date | null, reason: string | null, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ id }, { yankedAt, yankReason: reason });
  }

  /** Deletes a release; its README rows go with it (foreign key cascade). */
  async delete(id: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ id });
  }

  /**
   * Adds counted downloads to their releases and plugins, and to both's days, in one statement
   * (all or nothing: a failure, even a deadlock with another instance's write, leaves the counts
   * to the caller). A count of a release deleted since is dropped. The day rows are written in
   * key order, so two instances' batches take their row locks in the same order.
   */
  async addDownloads(counts: readonly DownloadCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.dataSource.query(
      `WITH counts AS (SELECT * FROM unnest($1::uuid[], $2::date[], $3::bigint[]) AS c(release_id, day, n)),
            per_release AS (SELECT release_id, sum(n) AS n FROM counts GROUP BY release_id),
            counted AS (UPDATE release SET downloads = release.downloads + per_release.n FROM per_release WHERE release.id = per_release.release_id RETURNING release.id AS release_id, release.plugin_id, per_release.n),
            plugins AS (UPDATE plugin SET downloads = plugin.downloads + per_plugin.n
                        FROM (SELECT plugin_id, sum(n) AS n FROM counted GROUP BY plugin_id) AS per_plugin WHERE plugin.id = per_plugin.plugin_id),
            release_days AS (INSERT INTO release_download_day (release_id, day, downloads)
                             SELECT counts.release_id, counts.day, counts.n FROM counts JOIN counted USING (release_id) ORDER BY 1, 2
                             ON CONFLICT (release_id, day) DO UPDATE SET downloads = release_download_day.downloads + excluded.downloads)
       INSERT INTO plugin_download_day (plugin_id, day, downloads)
       SELECT counted.plugin_id, counts.day, sum(counts.n) FROM counts JOIN counted USING (release_id) GROUP BY 1, 2 ORDER BY 1, 2
       ON CONFLICT (plugin_id, day) DO UPDATE SET downloads = plugin_download_day.downloads + excluded.downloads`,
      [counts.map((c) => c.releaseId), counts.map((c) => c.day), counts.map((c) => c.n)],
    );
  }
}
