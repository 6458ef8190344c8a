import type { DataSource, EntityManager } from 'typeorm';

/** A release's stored signature, as the `integrity` column holds it. */
export interface StoredSignature {
  releaseId: string;
  /** The plugin's slug and the release's version: what its transparency-log entry names. */
  slug: string;
  version: string;
  jws: string | null;
  kid: string;
}

export interface ResignFailure {
  releaseId: string;
  reason: string;
}

/** Releases that still name one of the kids and have not failed re-signing under that kid. */
const CARRYING = `r."integrity"->>'kid' = ANY($1::text[])
  AND NOT EXISTS (SELECT 1 FROM "release_resign_failure" f WHERE f."release_id" = r."id" AND f."kid" = r."integrity"->>'kid')`;

function countsByKid(rows: { kid: string; n: number }[]): Map<string, number> {
  return new Map(rows.map((row) => [row.kid, Number(row.n)]));
}

/**
 * The integrity module's queries on the `release` table. They read and write the `integrity`
 * jsonb column ({jws, kid, assets}) and nothing else: the rest of the release belongs to the
 * Plugins module. Plain class over a DataSource, so the operator CLI shares it.
 *
 * `idx_release_signing_kid` serves `integrity->>'kid'`: the re-sign worker's idle pass (every
 * 30 s on every instance) and the pending counts are index probes, not scans of every release.
 */
export class ReleaseSignaturesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private run<T>(manager: EntityManager | undefined, sql: string, params: unknown[]): Promise<T> {
    return (manager ?? this.dataSource.manager).query(sql, params);
  }

  /**
   * Row-locks up to `limit` releases still signed by one of `kids`. Rows another worker holds are
   * skipped (FOR UPDATE SKIP LOCKED), so server instances and the CLI never work on the same
   * release at once; a row another worker has just re-signed no longer matches.
   */
  async lockBatch(manager: EntityManager, kids: readonly string[], limit: number): Promise<StoredSignature[]> {
    if (kids.length === 0) return [];
    const rows: { id: string; slug: string; version: string; jws: string | null; kid: string }[] = await this.run(
      manager,
      `SELECT r."id", p."slug", r."version", r."integrity"->>'jws' AS "jws", r."integrity"->>'kid' AS "kid"
         FROM "release" r JOIN "plugin" p ON p."id" = r."plugin_id"
        WHERE ${CARRYING}
        ORDER BY r."id"
        LIMIT $2
        FOR UPDATE OF r SKIP LOCKED`,
      [kids, limit],
    );
    return rows.map((row) => ({ releaseId: row.id, slug: row.slug, version: row.version, jws: row.jws, kid: row.kid }));
  }

  /**
   * Replaces the signature, keeping every other member of `integrity` (the signed assets) as is.
   * Only while the release still names `fromKid`: the caller holds the row lock, so this is a
   * guard, not a race.
   */
  async replaceSignature(
    manager: EntityManager,
    releaseId: string,
    fromKid: string,
    signature: { jws: string; kid: string },
  ): Promise<boolean> {
    const rows: unknown[] = await this.run(
      manager,
      `UPDATE "release" SET "integrity" = "integrity" || jsonb_build_object('jws', $3::text, 'kid', $4::text)
        WHERE "id" = $1 AND "integrity"->>'kid' = $2
        RETURNING "id"`,
      [releaseId, fromKid, signature.jws, signature.kid],
    );
    // node-postgres answers an UPDATE … RETURNING with [rows, count] through TypeORM.
    const returned = Array.isArray(rows[0]) ? (rows[0] as unknown[]) : rows;
    return returned.length === 1;
  }

  /**
   * Locks the rows of the plugins these releases belong to (id order), as a publish or a yank holds
   * its plugin's row: before the audits and the log, every writer's order, so a re-signer and a
   * publisher never each hold what the other waits for.
   */
  async lockPlugins(manager: EntityManager, releaseIds: readonly string[]): Promise<void> {
    if (releaseIds.length === 0) return;
    await this.run(
      manager,
      'SELECT 1 FROM "plugin" WHERE "id" IN (SELECT "plugin_id" FROM "release" WHERE "id" = ANY($1::uuid[])) ORDER BY "id" FOR NO KEY UPDATE',
      [[...releaseIds]],
    );
  }

  /**
   * After the resign entry at `logIndex`: the release's plugin names the log to there in its
   * freshness statements (`plugin.log_size`), so the tree a `latest` answer's statement names
   * holds the entry that answer's `log_index` points at.
   */
  async advancePluginLogSize(manager: EntityManager, releaseId: string, logIndex: number): Promise<void> {
    await this.run(
      manager,
      'UPDATE "plugin" SET "log_size" = greatest("log_size", $2) WHERE "id" = (SELECT "plugin_id" FROM "release" WHERE "id" = $1)',
      [releaseId, String(logIndex + 1)],
    );
  }

  /** Names the transparency-log entry of the signature the release now carries. */
  async setLogIndex(manager: EntityManager, releaseId: string, logIndex: number): Promise<void> {
    await this.run(manager, 'UPDATE "release" SET "log_index" = $2 WHERE "id" = $1', [releaseId, String(logIndex)]);
  }

  async recordFailure(manager: EntityManager, releaseId: string, kid: string, reason: string, at: Date): Promise<void> {
    await this.run(
      manager,
      `INSERT INTO "release_resign_failure" ("release_id", "kid", "reason", "failed_at") VALUES ($1, $2, $3, $4)
       ON CONFLICT ("release_id", "kid") DO NOTHING`,
      [releaseId, kid, reason.slice(0, 300), at],
    );
  }

  /** Per kid: releases still signed by it and waiting to be re-signed. */
  async pendingCounts(kids: readonly string[], manager?: EntityManager): Promise<Map<string, number>> {
    if (kids.length === 0) return new Map();
    return countsByKid(
      await this.run(manager, `SELECT r."integrity"->>'kid' AS "kid", count(*)::int AS "n" FROM "release" r WHERE ${CARRYING} GROUP BY 1`, [
        kids,
      ]),
    );
  }

  async pendingCount(kid: string, manager?: EntityManager): Promise<number> {
    return (await this.pendingCounts([kid], manager)).get(kid) ?? 0;
  }

  /** Per kid: releases that still name it because their stored signature did not verify. */
  async failureCounts(kids: readonly string[], manager?: EntityManager): Promise<Map<string, number>> {
    if (kids.length === 0) return new Map();
    return countsByKid(
      await this.run(
        manager,
        `SELECT f."kid", count(*)::int AS "n"
           FROM "release_resign_failure" f JOIN "release" r ON r."id" = f."release_id" AND r."integrity"->>'kid' = f."kid"
          WHERE f."kid" = ANY($1::text[])
          GROUP BY f."kid"`,
        [kids],
      ),
    );
  }

  /** The first `limit` releases of the kid that could not be re-signed, and why. */
  async failures(kid: string, limit: number, manager?: EntityManager): Promise<ResignFailure[]> {
    const rows: { release_id: string; reason: string }[] = await this.run(
      manager,
      `SELECT f."release_id", f."reason"
         FROM "release_resign_failure" f JOIN "release" r ON r."id" = f."release_id" AND r."integrity"->>'kid' = f."kid"
        WHERE f."kid" = $1
        ORDER BY f."failed_at", f."release_id"
        LIMIT $2`,
      [kid, limit],
    );
    return rows.map((row) => ({ releaseId: row.release_id, reason: row.reason }));
  }
}
