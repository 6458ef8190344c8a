import type { DataSource, EntityManager } from 'typeorm';
import type { DayValue } from '../../lib/charts/days';

/** Every read of the daily download tables (their writes are ReleasesRepository.addDownloads). */
export class DownloadDaysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A plugin's days from `from` to `to` (inclusive) that have downloads: a range scan of the primary key. */
  async pluginDays(pluginId: string, from: string, to: string, manager?: EntityManager): Promise<DayValue[]> {
    const rows: { day: string; downloads: string }[] = await (manager ?? this.dataSource.manager).query(
      'SELECT day::text AS day, downloads FROM plugin_download_day WHERE plugin_id = $1 AND day BETWEEN $2::date AND $3::date ORDER BY day',
      [pluginId, from, to],
    );
    return rows.map((row) => ({ day: row.day, value: Number(row.downloads) }));
  }

  /** A release's days from `from` to `to` (inclusive) that have downloads. */
  async releaseDays(releaseId: string, from: string, to: string, manager?: EntityManager): Promise<DayValue[]> {
    const rows: { day: string; downloads: string }[] = await (manager ?? this.dataSource.manager).query(
      'SELECT day::text AS day, downloads FROM release_download_day WHERE release_id = $1 AND day BETWEEN $2::date AND $3::date ORDER BY day',
      [releaseId, from, to],
    );
    return rows.map((row) => ({ day: row.day, value: Number(row.downloads) }));
  }

  /** Deletes the days before `before` from both tables; how many rows went. */
  async pruneBefore(before: string): Promise<number> {
    const [{ deleted }]: { deleted: string }[] = await this.dataSource.query(
      `WITH plugins AS (DELETE FROM plugin_download_day WHERE day < $1::date RETURNING 1),
            releases AS (DELETE FROM release_download_day WHERE day < $1::date RETURNING 1)
       SELECT (SELECT count(*) FROM plugins) + (SELECT count(*) FROM releases) AS deleted`,
      [before],
    );
    return Number(deleted);
  }
}
