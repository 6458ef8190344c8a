import { Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import { Clock } from '../../common/clock';
import { DomainError } from '../../common/errors/domain-error';
import { isDatabaseUnavailable } from '../../common/errors/database-unavailable';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import { AssetFetchError } from '../../common/fetch';
import { IngestService } from '../ingest/ingest.service';
import { forgeForUrl } from '../../platform/forges/urls';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { type DeliveryOutcome, DeliveriesRepository } from './deliveries.repository';
import { DeliveryFailure, isTransient } from './delivery-failure';
import type { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { ForgeReleases } from './forge-releases';
import { ManifestResolver } from './manifest-resolver';

/** What one attempt came to: finished one way or another, or worth another attempt later. */
export type AttemptResult = { kind: 'done'; outcome: DeliveryOutcome } | { kind: 'retry'; reason: string; detail: string; soon?: boolean };

const failed = (reason: string, detail: string, violations: DeliveryOutcome['violations'] = null): AttemptResult => ({
  kind: 'done',
  outcome: { status: 'failed', reason, detail, violations, version: null },
});

/**
 * Ingests one stored delivery: the release's assets (read by tag from the forge when the payload
 * listed none), the manifest as the spec resolves it, then the shared ingest pipeline. Failures
 * are sorted into final ones (with the reason owners see) and network trouble, which is retried.
 */
@Injectable()
export class DeliveryProcessor {
  constructor(
    private readonly plugins: PluginsRepository,
    private readonly forges: ForgeRegistry,
    private readonly forgeReleases: ForgeReleases,
    private readonly manifests: ManifestResolver,
    private readonly ingest: IngestService,
    private readonly audit: AuditService,
    private readonly deliveries: DeliveriesRepository,
    private readonly clock: Clock,
  ) {}

  async attempt(delivery: WebhookDeliveryEntity): Promise<AttemptResult> {
    try {
      return await this.ingestDelivery(delivery);
    } catch (error) {
      return this.classify(error);
    }
  }

  private async ingestDelivery(delivery: WebhookDeliveryEntity): Promise<AttemptResult> {
    const plugin = await this.plugins.findById(delivery.pluginId);
    if (!plugin) return failed('not-found', 'the plugin no longer exists');
    const location = forgeForUrl(plugin.repoUrl, this.forges.all());
    let assets = delivery.assets ?? [];
    if (assets.length === 0 && location) {
      const release = await this.forgeReleases.releaseByTag(location, delivery.tag);
      if (release?.draft) return failed('release-draft', `the release ${delivery.tag} is a draft`);
      assets = release?.assets ?? [];
    }
    const manifest = await this.manifests.resolve(location, delivery.tag, assets);
    const result = await this.ingest.ingest({
      slug: plugin.slug,
      version: delivery.tag,
      manifestText: manifest.text,
      manifestFileName: manifest.fileName,
      assets: manifest.assets,
      attestation: null,
      source: delivery.source,
      actor: {},
      publisher: null,
      target: { pluginId: plugin.id },
      onRecorded: (version, manager) => this.deliveries.markDelivered(delivery.id, version, this.clock.now(), manager),
    });
    const detail = result.warnings.length ? result.warnings.join('; ').slice(0, 1000) : null;
    return { kind: 'done', outcome: { status: 'succeeded', reason: null, detail, violations: null, version: result.version } };
  }

  private classify(error: unknown): AttemptResult {
    if (error instanceof DeliveryFailure) return failed(error.reason, error.detail, error.violations);
    if (error instanceof AssetFetchError) {
      if (isTransient(error.reason, error.status)) return { kind: 'retry', reason: 'forge-unreachable', detail: error.message };
      return failed('forge-fetch-failed', error.message);
    }
    if (error instanceof DomainError) {
      if (error.code === 'version-exists')
        return {
          kind: 'done',
          outcome: { status: 'skipped', reason: 'version-exists', detail: error.detail, violations: null, version: null },
        };
      if (error.kind === 'upstream-failed') {
        const { reason, upstreamStatus } = error.extensions as { reason?: string; upstreamStatus?: number };
        if (isTransient(reason, upstreamStatus)) return { kind: 'retry', reason: error.code, detail: error.detail };
      }
      const violations = error.errors ? [...error.errors] : null;
      const versionMismatch =
        error.code === 'manifest-invalid' && violations?.some((v) => v.path === '/version' && v.message.includes('release tag'));
      return failed(versionMismatch ? 'version-mismatch' : error.code, error.detail, violations);
    }
    // The database went away mid-attempt (nothing was recorded): again as soon as it is back.
    if (isDatabaseUnavailable(error))
      return {
        kind: 'retry',
        reason: 'database-unavailable',
        detail: 'the database was unavailable; the delivery is tried again shortly',
        soon: true,
      };
    // A programming error: worth another attempt; the worker gives up after its limit.
    return { kind: 'retry', reason: 'internal', detail: 'the ingest failed unexpectedly; it is retried' };
  }

  /** Every final failure is audited (no release ever fails silently); a missing manifest asset also as the spec names it. */
  async auditFailure(delivery: WebhookDeliveryEntity, outcome: DeliveryOutcome, slug: string | null): Promise<void> {
    const details = {
      delivery: delivery.id,
      provider: delivery.provider,
      deliveryId: delivery.deliveryId,
      tag: delivery.tag,
      reason: outcome.reason,
      detail: outcome.detail,
      ...(outcome.violations ? { violations: outcome.violations } : {}),
    };
    if (outcome.reason === 'manifest-asset-missing') await this.audit.record({ action: 'plugin.manifest_asset_missing', slug, details });
    await this.audit.record({ action: 'webhook.delivery_failed', slug, details });
  }

  slugOf(pluginId: string): Promise<string | null> {
    return this.plugins.findById(pluginId).then((plugin) => plugin?.slug ?? null);
  }
}
