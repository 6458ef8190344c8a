import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { AssetFetchError } from '../../common/fetch';
import { forgeForUrl, type ForgeLocation } from '../../platform/forges/urls';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { ReleasesRepository } from '../../catalogue/plugins/releases.repository';
import { versionKey } from '../../catalogue/plugins/versions';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryWorker } from './delivery-worker';
import { ForgeReleases } from './forge-releases';
import { PluginWebhooksRepository } from './plugin-webhooks.repository';

const RECENT_RELEASES = 20;
const CONCURRENCY = 4;
/** How long a forge that said 429 without saying how long is left alone. */
const DEFAULT_BACKOFF_MS = 60_000;

/**
 * Beyond the spec: no release is lost to a dropped delivery. Lists each webhook plugin's recent
 * releases through its forge's API and queues every one the registry lacks (and has no delivery
 * for) as a delivery of source `reconcile`, which the worker ingests like any other.
 */
@Injectable()
export class Reconciler {
  private readonly logger = new Logger('Webhooks');
  /** Forge instances that asked to be left alone (rate limit), by instance name: until when. */
  private readonly pausedUntil = new Map<string, number>();

  constructor(
    private readonly plugins: PluginsRepository,
    private readonly releases: ReleasesRepository,
    private readonly webhooks: PluginWebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly forges: ForgeRegistry,
    private readonly forgeReleases: ForgeReleases,
    private readonly worker: DeliveryWorker,
    private readonly clock: Clock,
  ) {}

  /** One plugin; the tags it queued. Forge errors propagate (the caller reports them); a rate limit also pauses that forge for the periodic pass. */
  reconcilePlugin(plugin: PluginEntity): Promise<string[]> {
    const location = forgeForUrl(plugin.repoUrl, this.forges.all());
    return location ? this.reconcileAt(plugin, location) : Promise.resolve([]);
  }

  private async reconcileAt(plugin: PluginEntity, location: ForgeLocation): Promise<string[]> {
    const [known, published] = await Promise.all([this.deliveries.knownTags(plugin.id), this.releases.versionKeys(plugin.id)]);
    const queued: string[] = [];
    const stored: string[] = [];
    let releases;
    try {
      releases = await this.forgeReleases.recentReleases(location, RECENT_RELEASES);
    } catch (error) {
      this.noteRateLimit(location.forge.name, error);
      throw error;
    }
    for (const release of releases) {
      if (known.has(release.tag)) continue;
      if (published.has(versionKey(release.tag))) continue;
      const delivery = await this.deliveries.insertQueued(
        {
          pluginId: plugin.id,
          provider: location.forge.type,
          deliveryId: `reconcile:${plugin.id}:${release.tag}`.slice(0, 200),
          event: 'reconcile',
          source: 'reconcile',
          repoUrl: plugin.repoUrl,
          tag: release.tag,
          assets: release.assets.length ? release.assets : null,
          payloadSha256: '',
        },
        this.clock.now(),
      );
      if (delivery) {
        queued.push(release.tag);
        stored.push(delivery.id);
      }
    }
    if (stored.length) await this.worker.enqueue(stored);
    return queued;
  }

  /**
   * Every webhook plugin, a few at a time; one plugin's forge trouble does not stop the others,
   * and a forge that answered with a rate limit (429, or 403 with an exhausted quota) is skipped
   * until the time it named (Retry-After, X-RateLimit-Reset / RateLimit-Reset).
   */
  async reconcileAll(): Promise<number> {
    const ids = [...(await this.webhooks.pluginIds())];
    let queued = 0;
    const next = async (): Promise<void> => {
      for (let id = ids.shift(); id !== undefined; id = ids.shift()) {
        const plugin = await this.plugins.findById(id);
        if (!plugin) continue;
        const location = forgeForUrl(plugin.repoUrl, this.forges.all());
        if (!location || (this.pausedUntil.get(location.forge.name) ?? 0) > this.clock.nowMs()) continue;
        try {
          queued += (await this.reconcileAt(plugin, location)).length;
        } catch (error) {
          this.logger.warn(`reconciling "${plugin.slug}" failed: ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, next));
    return queued;
  }

  private noteRateLimit(forge: string, error: unknown): void {
    if (!(error instanceof AssetFetchError) || error.reason !== 'status') return;
    if (error.status !== 429 && error.retryAfterMs === undefined) return;
    const waitMs = error.retryAfterMs ?? DEFAULT_BACKOFF_MS;
    this.pausedUntil.set(forge, this.clock.nowMs() + waitMs);
    this.logger.warn(
      `forge ${forge} asked to slow down (HTTP ${error.status}); reconciling its plugins resumes in ${Math.ceil(waitMs / 1000)} s`,
    );
  }
}
