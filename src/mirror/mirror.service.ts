import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditService } from '../platform/audit/audit.service';
import { BackgroundLoop } from '../common/background-loop';
import { Clock } from '../common/clock';
import { AssetFetchError } from '../common/fetch';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { MirroredKeysRepository } from '../trust/integrity/mirrored-keys.repository';
import type { KeySet } from '../lib/integrity';
import { type UpstreamReader, verifyUpstreamRelease } from '../lib/mirror';
import { CatalogueListing } from '../catalogue/plugins/catalogue-listing';
import { PluginsRepository } from '../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../catalogue/plugins/releases.repository';
import { versionKey } from '../catalogue/plugins/versions';
import { Metrics } from '../platform/metrics/metrics';
import { UpstreamLog } from '../trust/mirror-log/upstream-log';
import { ResponseCache } from '../platform/response-cache/response-cache';
import { CursorMovedError, MirrorRepository } from './mirror.repository';
import type { MirrorStatus } from './mirror.types';
import { mirroredPluginFields, type UpstreamPlugin } from './mirrored-plugin';
import { UPSTREAM_READER } from './upstream-fetch';
import { MirroredReleaseWriter, type ShownUpstream, upstreamLogIndex } from './mirrored-release-writer';
import { UpstreamPresentationReader } from './upstream-presentation';

export { UPSTREAM_READER } from './upstream-fetch';

/** One entry of upstream's changes feed. */
interface Change {
  cursor: string;
  type: string;
  slug: string | null;
  version: string | null;
}

interface ChangesPage {
  changes: Change[];
  next: string;
  more: boolean;
}

interface UpstreamReleaseFields {
  yankReason?: string | null;
}

const PAGE = 100;
const MIRROR_ACTOR = { userId: null, tokenId: null, ip: null };

/**
 * Follows the upstream registry's changes feed (MIRROR_OF): copies each release after checking
 * every byte against upstream's signature (never re-signing: upstream's JWS is stored as is),
 * refuses and records what fails, applies yanks, deletions and plugin changes, and keeps
 * upstream's key set. The cursor moves in the transaction that applies each change, so a restart
 * resumes exactly where it stopped.
 */
@Injectable()
export class MirrorService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Mirror');
  private readonly loop: BackgroundLoop;
  private keysLoaded = false;
  /** This instance is the one following upstream (on PostgreSQL, it holds the follower lock). */
  private following = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(UPSTREAM_READER) private readonly reader: UpstreamReader,
    private readonly repository: MirrorRepository,
    private readonly keys: MirroredKeysRepository,
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly presentation: UpstreamPresentationReader,
    private readonly writer: MirroredReleaseWriter,
    private readonly listing: CatalogueListing,
    private readonly audit: AuditService,
    private readonly responses: ResponseCache,
    private readonly clock: Clock,
    private readonly metrics: Metrics,
    private readonly upstreamLog: UpstreamLog,
  ) {
    this.loop = new BackgroundLoop(
      () => this.poll(),
      config.mirrorPollIntervalMs,
      (error) => this.logger.warn(`reading ${config.mirrorOf} failed: ${error.message}`),
    );
  }

  onApplicationBootstrap(): void {
    if (!this.config.mirrorOf) return;
    this.logger.log(`read-only mirror of ${this.config.mirrorOf}`);
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
    this.following = false;
    await this.repository.releaseFollowerLock();
  }

  /** The admin view: upstream, cursor, last poll and the latest refusals. */
  async status(): Promise<MirrorStatus> {
    const [state, failures, failureCount] = await Promise.all([
      this.repository.findState(),
      this.repository.recentFailures(100),
      this.repository.countFailures(),
    ]);
    return { upstream: this.config.mirrorOf, following: this.following, state, failures, failureCount };
  }

  /** One pass: every change upstream has after the cursor. */
  async poll(): Promise<void> {
    const upstream = this.config.mirrorOf;
    if (!upstream) return;
    // Several instances on one PostgreSQL database: one follows, the others wait their turn (it
    // comes when the follower stops or dies). The embedded engine has one process: it follows.
    if (!(await this.stillFollowing())) return;
    try {
      if (!this.keysLoaded) await this.refreshKeys(upstream);
      let cursor = await this.repository.startPass(upstream);
      let changed = false;
      for (let pages = 0; ; pages += 1) {
        // The lock is checked again before every page: a follower whose lock connection dropped
        // mid-pass stops here, and the fenced cursor stops it within a page (see apply).
        if (pages > 0 && !(await this.stillFollowing())) return;
        const page = (await this.reader.json(`${upstream}/api/changes?limit=${PAGE}${cursor ? `&since=${cursor}` : ''}`)) as ChangesPage;
        for (const change of page.changes) {
          await this.apply(upstream, change, cursor);
          // What it copied is in upstream's log: the next head served must hold it.
          this.upstreamLog.forgetHead();
          cursor = change.cursor;
          changed = true;
          if (this.loop.isStopping) return;
        }
        if (!page.more || !page.changes.length) break;
      }
      if (changed) await this.responses.invalidate();
      await this.repository.savePoll(upstream, this.clock.now(), null);
    } catch (error) {
      if (error instanceof CursorMovedError) {
        // Another instance follows now and has moved on: this pass wrote nothing and is abandoned.
        this.logger.warn(`stopped following ${upstream}: ${error.message}`);
        this.following = false;
        this.keysLoaded = false;
        return;
      }
      await this.repository.savePoll(upstream, this.clock.now(), (error as Error).message.slice(0, 500)).catch(() => undefined);
      throw error;
    }
  }

  private async stillFollowing(): Promise<boolean> {
    this.following = this.config.databaseUrl ? await this.repository.holdFollowerLock() : true;
    if (!this.following) this.keysLoaded = false;
    return this.following;
  }

  /** Applies one change; its transaction moves the cursor from `from`, fenced (CursorMovedError). */
  private async apply(upstream: string, change: Change, from: string | null): Promise<void> {
    const { slug, version } = change;
    const done = (manager: EntityManager) => this.repository.moveCursor(upstream, from, change.cursor, manager);
    if (change.type === 'keys.changed') {
      await this.refreshKeys(upstream);
      await this.reverifyStale(upstream, from);
      return this.repository.transaction(done);
    }
    if (!slug) return this.repository.transaction(done);
    switch (change.type) {
      case 'release.published':
        return version ? this.copyRelease(upstream, slug, version, done) : this.repository.transaction(done);
      case 'release.yanked':
      case 'release.unyanked':
        return this.applyYank(upstream, slug, version, change.type === 'release.yanked', done);
      case 'release.deleted':
        return this.deleteRelease(upstream, slug, version, done);
      case 'plugin.updated':
        return this.refreshPlugin(upstream, slug, done, true);
      case 'plugin.deleted':
        return this.repository.transaction(async (manager) => {
          await this.plugins.deleteBySlug(slug, manager);
          await done(manager);
        });
      default:
        // plugin.verified, featured, deprecated, updated and their undoing: upstream's public fields as they now are.
        return this.refreshPlugin(upstream, slug, done);
    }
  }

  private async refreshKeys(upstream: string): Promise<void> {
    const keySet = (await this.reader.json(`${upstream}/.well-known/registry-key.json`)) as KeySet;
    if (!Array.isArray(keySet?.keys)) throw new Error("upstream's key set is not one");
    await this.repository.transaction((manager) => this.keys.replace(keySet.keys, this.clock.now(), manager));
    this.keysLoaded = true;
  }

  /**
   * After upstream's key set changed: every copied release whose signature names a key no longer
   * in it (upstream re-signed it and retired the key) is read and verified again, and takes
   * upstream's new signature and its log entry; one that no longer verifies is refused and recorded, and keeps its
   * old signature (clients then refuse it too).
   */
  private async reverifyStale(upstream: string, from: string | null): Promise<void> {
    const kids = (await this.keys.list()).map((key) => key.kid);
    for (const stale of await this.releases.signedByNoneOf(kids)) {
      const verdict = await verifyUpstreamRelease(upstream, stale.slug, stale.version, this.reader);
      await this.repository.transaction(async (manager) => {
        // Fenced like every apply: the cursor still where this pass read it, or nothing is written.
        await this.repository.moveCursor(upstream, from, from, manager);
        if (verdict.ok) {
          const integrity = {
            jws: verdict.release.integrity!.jws,
            kid: verdict.kid,
            assets: verdict.payload.assets.map(({ attestation: _attestation, ...asset }) => asset),
          };
          await this.releases.setIntegrity(stale.id, integrity, manager);
          // The new signature is a re-signing upstream logged as a new entry.
          await this.releases.setLogIndex(stale.id, upstreamLogIndex(verdict.release), manager);
        } else {
          this.metrics.observeMirrorRefusal(verdict.code);
          this.logger.warn(
            `refused the new signature of ${stale.slug}@${stale.version} from ${upstream}: ${verdict.code}: ${verdict.message}`,
          );
          await this.repository.addFailure(
            {
              slug: stale.slug,
              version: stale.version,
              code: verdict.code,
              message: verdict.message.slice(0, 500),
              failedAt: this.clock.now(),
            },
            manager,
          );
        }
      });
    }
  }

  /** Upstream's answer, or null when it no longer has the thing (a later change will say why). */
  private async readOrGone<T>(url: string): Promise<T | null> {
    try {
      return (await this.reader.json(url)) as T;
    } catch (error) {
      if (error instanceof AssetFetchError && error.reason === 'status' && (error.status === 404 || error.status === 410)) return null;
      throw error;
    }
  }

  private pluginUrl(upstream: string, slug: string): string {
    return `${upstream}/api/plugins/${encodeURIComponent(slug)}`;
  }

  private async copyRelease(
    upstream: string,
    slug: string,
    version: string,
    done: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const detail = await this.readOrGone<UpstreamPlugin>(this.pluginUrl(upstream, slug));
    if (!detail) return this.repository.transaction(done);
    let verdict: Awaited<ReturnType<typeof verifyUpstreamRelease>>;
    try {
      verdict = await verifyUpstreamRelease(upstream, slug, version, this.reader);
    } catch (error) {
      if (error instanceof AssetFetchError && error.reason === 'status' && (error.status === 404 || error.status === 410))
        return this.repository.transaction(done);
      throw error;
    }
    if (!verdict.ok) {
      this.metrics.observeMirrorRefusal(verdict.code);
      this.logger.warn(`refused ${slug}@${version} from ${upstream}: ${verdict.code}: ${verdict.message}`);
      return this.repository.transaction(async (manager) => {
        await this.repository.addFailure(
          { slug, version, code: verdict.code, message: verdict.message.slice(0, 500), failedAt: this.clock.now() },
          manager,
        );
        await done(manager);
      });
    }
    const shown = this.presentation.shows(detail, version) ? await this.writer.readPresentation(upstream, detail) : null;
    await this.repository.transaction(async (manager) => {
      const plugin = await this.plugins.upsertMirrored(mirroredPluginFields(detail), manager);
      // Another instance of this mirror may have copied it first: nothing to do then.
      if (await this.releases.findByVersionKey(plugin.id, versionKey(version), manager)) return done(manager);
      await this.writer.insert(plugin, verdict, shown, manager);
      await this.listing.recompute(plugin.id, manager, { latestReleaseAt: this.clock.now() });
      await this.audit.record(
        { action: 'plugin.publish', actor: MIRROR_ACTOR, slug, details: { version, kid: verdict.kid, mirroredFrom: upstream } },
        manager,
      );
      await done(manager);
    });
  }

  /** Upstream's plugin page as it is now, with its shown release's README and pictures. */
  private async readShown(upstream: string, slug: string): Promise<ShownUpstream | null> {
    const detail = await this.readOrGone<UpstreamPlugin>(this.pluginUrl(upstream, slug));
    return detail ? { detail, shown: await this.writer.readPresentation(upstream, detail) } : null;
  }

  /** Upstream's public plugin fields; after `plugin.updated` (a manifest refreshed), the shown release's README and pictures too. */
  private async refreshPlugin(
    upstream: string,
    slug: string,
    done: (manager: EntityManager) => Promise<void>,
    rereadShown = false,
  ): Promise<void> {
    const view = rereadShown
      ? await this.readShown(upstream, slug)
      : await this.readOrGone<UpstreamPlugin>(this.pluginUrl(upstream, slug)).then((detail) => (detail ? { detail, shown: null } : null));
    await this.repository.transaction(async (manager) => {
      // Only a plugin already copied (it has a verified release here) takes upstream's fields.
      const plugin = view ? await this.plugins.findBySlug(slug, manager) : null;
      if (!view || !plugin) return done(manager);
      await this.plugins.upsertMirrored(mirroredPluginFields(view.detail), manager);
      if (await this.writer.applyShown(plugin.id, view, manager)) await this.listing.recompute(plugin.id, manager);
      await done(manager);
    });
  }

  /** A yank moves what upstream's page shows: its README and pictures come along (as after a deletion). */
  private async applyYank(
    upstream: string,
    slug: string,
    version: string | null,
    yanked: boolean,
    done: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const record = version
      ? await this.readOrGone<UpstreamReleaseFields>(`${this.pluginUrl(upstream, slug)}/releases/${encodeURIComponent(version)}`)
      : null;
    const view = await this.readShown(upstream, slug);
    await this.repository.transaction(async (manager) => {
      const plugin = await this.plugins.findBySlug(slug, manager);
      const release = plugin && version ? await this.releases.findByVersionKey(plugin.id, versionKey(version), manager) : null;
      if (plugin && release) {
        await this.releases.setYanked(release.id, yanked ? this.clock.now() : null, yanked ? (record?.yankReason ?? null) : null, manager);
        await this.writer.applyShown(plugin.id, view, manager);
        await this.listing.recompute(plugin.id, manager);
        await this.audit.record(
          {
            action: yanked ? 'plugin.yank' : 'plugin.unyank',
            actor: MIRROR_ACTOR,
            slug,
            details: { version, reason: record?.yankReason ?? null },
          },
          manager,
        );
      }
      await done(manager);
    });
  }

  private async deleteRelease(
    upstream: string,
    slug: string,
    version: string | null,
    done: (manager: EntityManager) => Promise<void>,
  ): Promise<void> {
    const view = await this.readShown(upstream, slug);
    await this.repository.transaction(async (manager) => {
      const plugin = await this.plugins.findBySlug(slug, manager);
      const release = plugin && version ? await this.releases.findByVersionKey(plugin.id, versionKey(version), manager) : null;
      if (plugin && release) {
        await this.releases.delete(release.id, manager);
        await this.writer.applyShown(plugin.id, view, manager);
        await this.listing.recompute(plugin.id, manager);
        await this.audit.record({ action: 'release.delete', actor: MIRROR_ACTOR, slug, details: { version } }, manager);
      }
      await done(manager);
    });
  }
}
