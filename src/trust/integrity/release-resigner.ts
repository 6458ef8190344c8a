import type { EntityManager } from 'typeorm';
import { insertAuditRecord } from '../../platform/audit/audit-row';
import { retireDrainedKey, type ResignVia } from './key-drain';
import type { ReleaseSignaturesRepository } from './release-signatures.repository';
import { resignCompactJws } from './resign-signature';
import { publicJwkOf, type SigningKeyManager } from './signing-key-manager';
import type { SigningKeyRepository } from './signing-key.repository';
import { signatureEntry } from '../transparency-log/log-entries';

/**
 * Marks a catalogue write before its commit (the response cache's `beginWrite`): nothing cached
 * from before it is served once it may be visible. The function it resolves to ends the mark.
 */
export type MarkCatalogueWrite = () => Promise<() => Promise<void>>;

const NOTHING_TO_MARK: MarkCatalogueWrite = () => Promise.resolve(() => Promise.resolve());

/** What one batch did. */
export interface ResignBatch {
  /** The key the batch signed with (null when there was nothing to do). */
  signedWith: string | null;
  resigned: number;
  failed: number;
}

/** Where one draining key stands after a completion check. */
export type DrainStatus =
  | { state: 'pending'; kid: string; pending: number }
  /** Nothing left to re-sign; the key stays in the key set until `leavesAt` (release responses may be cached). */
  | { state: 'grace'; kid: string; drainedAt: Date; leavesAt: Date }
  | { state: 'retired'; kid: string };

export interface DrainSummary {
  resigned: number;
  failed: number;
  batches: number;
  /** Each draining key, newest first (empty when none drains); null when stopped before the completion check. */
  drains: DrainStatus[] | null;
}

/**
 * Moves releases off displaced keys: each batch re-signs, with the current key, the very payload
 * bytes a draining (or retired) key signed, after checking the old signature; then retires each
 * draining key once nothing is left and its grace period has passed. Framework-free, so the
 * server's background worker and `registry keys resign` run the same code. All state lives in
 * the database (the key's state, the kid each release carries, the failures), so a crash loses
 * at most one uncommitted batch and anyone may resume.
 */
export class ReleaseResigner {
  constructor(
    private readonly keys: SigningKeyRepository,
    private readonly signatures: ReleaseSignaturesRepository,
    private readonly keyManager: SigningKeyManager,
    private readonly now: () => Date = () => new Date(),
    /** The server's response cache; the CLI has none to mark. */
    private readonly markCatalogueWrite: MarkCatalogueWrite = NOTHING_TO_MARK,
  ) {}

  /**
   * One transaction: up to `limit` releases still signed by a draining or retired key are locked
   * (skipping rows another worker holds), verified against their old key and re-signed with the
   * current one. A release whose stored signature does not verify is recorded as failed and keeps
   * its signature. The key-set lock is held shared, so the current key cannot change meanwhile.
   */
  async resignBatch(limit: number, via: ResignVia): Promise<ResignBatch> {
    const mark: { end?: () => Promise<void> } = {};
    try {
      return await this.keys.transaction((em) => this.resignLocked(em, limit, via, mark));
    } finally {
      await mark.end?.();
    }
  }

  private async resignLocked(em: EntityManager, limit: number, via: ResignVia, mark: { end?: () => Promise<void> }): Promise<ResignBatch> {
    await this.keys.lockKeySetShared(em);
    const sources = new Map((await this.keys.findResignSources(em)).map((key) => [key.kid, key]));
    const rows = await this.signatures.lockBatch(em, [...sources.keys()], limit);
    if (rows.length === 0) return { signedWith: null, resigned: 0, failed: 0 };
    // The releases' answers change (signature, log index, the plugin's log size): marked before
    // the commit, not for an idle pass, which must not empty the response cache.
    mark.end = await this.markCatalogueWrite();
    await this.signatures.lockPlugins(
      em,
      rows.map((row) => row.releaseId),
    );
    const current = await this.keyManager.signingKey(em, { create: false });
    const at = this.now();
    const perKid = new Map<string, { resigned: number; failed: number }>();
    const logged: { releaseId: string; slug: string; version: string; jws: string }[] = [];
    for (const row of rows) {
      const counts = perKid.get(row.kid) ?? { resigned: 0, failed: 0 };
      perKid.set(row.kid, counts);
      const outcome = resignCompactJws({
        jws: row.jws,
        kid: row.kid,
        oldKey: publicJwkOf(sources.get(row.kid)!),
        newKid: current.kid,
        newPrivateKey: current.privateKey,
      });
      if (outcome.ok && (await this.signatures.replaceSignature(em, row.releaseId, row.kid, { jws: outcome.jws, kid: current.kid }))) {
        counts.resigned++;
        logged.push({ releaseId: row.releaseId, slug: row.slug, version: row.version, jws: outcome.jws });
      } else if (!outcome.ok) {
        await this.signatures.recordFailure(em, row.releaseId, row.kid, outcome.reason, at);
        counts.failed++;
      }
    }
    // Every signing_key update first, in kid order, then the audits (which take the changes
    // feed's lock): two re-signers never hold one while waiting for the other.
    const kids = [...perKid.keys()].sort();
    for (const kid of kids) {
      const counts = perKid.get(kid)!;
      if (counts.resigned) await this.keys.addResigned(em, kid, counts.resigned);
    }
    for (const kid of kids) {
      const counts = perKid.get(kid)!;
      // A retired key has no drain to complete: releases that turn up for it later (signed just
      // before it was displaced, committed after) are audited as they are rescued.
      if (sources.get(kid)!.state === 'retired') {
        await insertAuditRecord(em, {
          action: 'key.resign',
          details: { kid, resignedWith: current.kid, resigned: counts.resigned, failed: counts.failed, retiredKey: true, via },
        });
      }
    }
    // Last, the new signatures go into the transparency log (its lock is held to commit, and
    // taken after every other lock); each release then names its resign entry, and its plugin's
    // freshness statements a log that holds it.
    for (const release of logged) {
      const index = await this.keyManager.log.append(signatureEntry('resign', { ...release, kid: current.kid }), em, release.releaseId);
      await this.signatures.setLogIndex(em, release.releaseId, index);
      await this.signatures.advancePluginLogSize(em, release.releaseId, index);
    }
    const totals = [...perKid.values()].reduce(
      (sum, counts) => ({ resigned: sum.resigned + counts.resigned, failed: sum.failed + counts.failed }),
      { resigned: 0, failed: 0 },
    );
    return { signedWith: current.kid, ...totals };
  }

  /**
   * Checks every draining key: releases left, or nothing left (the grace period starts), or the
   * grace period over, in which case it retires and `key.resign` is audited with its drain's
   * totals. Under the exclusive key-set lock, so only one instance retires a key and audits it once.
   */
  async completeDrain(graceMs: number, via: ResignVia): Promise<DrainStatus[]> {
    return this.keys.transaction(async (em: EntityManager) => {
      await this.keys.lockKeySet(em);
      const published = await this.keys.findPublishedForUpdate(em);
      const draining = published.filter((key) => key.state === 'draining');
      if (draining.length === 0) return [];
      const pendingByKid = await this.signatures.pendingCounts(
        draining.map((key) => key.kid),
        em,
      );
      const currentKid = published.find((key) => key.state === 'current')?.kid ?? null;
      const at = this.now();
      const statuses: DrainStatus[] = [];
      let retired = false;
      for (const key of draining) {
        const pending = pendingByKid.get(key.kid) ?? 0;
        if (pending > 0) {
          statuses.push({ state: 'pending', kid: key.kid, pending });
          continue;
        }
        let drainedAt = key.drainedAt;
        if (!drainedAt) {
          drainedAt = at;
          await this.keys.markDrained(em, key.kid, at);
        }
        const leavesAt = new Date(drainedAt.getTime() + graceMs);
        if (at < leavesAt) {
          statuses.push({ state: 'grace', kid: key.kid, drainedAt, leavesAt });
          continue;
        }
        retired = (await retireDrainedKey(em, { keys: this.keys, signatures: this.signatures }, key, { at, currentKid, via })) || retired;
        statuses.push({ state: 'retired', kid: key.kid });
      }
      // The key set without the retired keys, logged once and last (after every audit's lock).
      if (retired) await this.keyManager.logKeySet(em);
      return statuses;
    });
  }

  /**
   * Re-signs batch after batch until nothing is left (or `shouldStop` says so between batches),
   * then checks each draining key's completion.
   */
  async drain(options: { batchSize: number; graceMs: number; via: ResignVia; shouldStop?: () => boolean }): Promise<DrainSummary> {
    const summary = { resigned: 0, failed: 0, batches: 0 };
    while (!options.shouldStop?.()) {
      const batch = await this.resignBatch(options.batchSize, options.via);
      if (batch.resigned + batch.failed === 0) break;
      summary.batches++;
      summary.resigned += batch.resigned;
      summary.failed += batch.failed;
      // Let requests between batches have the event loop (and, embedded, the one connection).
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (options.shouldStop?.()) return { ...summary, drains: null };
    return { ...summary, drains: await this.completeDrain(options.graceMs, options.via) };
  }
}
