import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { OccasionalWarning } from '../../common/logging/occasional-warning';
import { badRequest, DomainError } from '../../common/errors/domain-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { detectWebhookForge } from '../../platform/forges/adapters';
import type { ForgeAdapter } from '../../platform/forges/forge-adapter';
import { ForgeRegistry } from '../../platform/forges/forge-registry';
import type { WebhookHeaders } from '../../platform/forges/webhook.types';
import { MIN_WEBHOOK_SECRET_LENGTH } from '../../platform/forges/webhook-signature';
import { parseRepoUrl } from '../../platform/forges/urls';
import type { PluginEntity } from '../../catalogue/plugins/entities/plugin.entity';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import { DeliveriesRepository } from './deliveries.repository';
import { DeliveryWorker } from './delivery-worker';
import type { WebhookReceiptDto } from './dto/webhook-receipt.dto';
import { PluginWebhooksRepository } from './plugin-webhooks.repository';
import { openWebhookSecret } from './webhook-secret';

/**
 * The HTTP status and body a delivery is answered with
 * (docs/decisions.md#release-webhooks-are-verified-per-plugin-and-queued-durably).
 */
export interface WebhookReceipt {
  status: 200 | 202 | 204;
  body: WebhookReceiptDto | undefined;
}

/** One answer for every verification failure, so a caller learns nothing about which step failed. */
const unverified = () =>
  new DomainError(
    'unauthorized',
    'webhook-unverified',
    "the delivery is not signed with the webhook secret of the plugin registered for the payload's repository",
  );

/** No forge headers means no signature or token to check: unauthenticated, as the spec's 401 says. */
const unrecognized = () =>
  new DomainError(
    'unauthorized',
    'webhook-unrecognized',
    'no forge webhook headers: expected X-GitHub-Event, X-Gitlab-Event, X-Gitea-Event or X-Forgejo-Event with its signature or token',
  );

/**
 * Receives a release webhook: finds the forge family from its headers, the plugin from the
 * payload's repository URL, verifies the signature over the raw body with that plugin's secret
 * only, and stores a verified release event as a queued delivery for the worker. Nothing is
 * stored before verification succeeds.
 */
@Injectable()
export class WebhookReceiverService {
  private readonly logger = new Logger('Webhooks');
  private readonly unqueued: OccasionalWarning;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly forges: ForgeRegistry,
    private readonly plugins: PluginsRepository,
    private readonly secrets: PluginWebhooksRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly worker: DeliveryWorker,
    private readonly clock: Clock,
  ) {
    this.unqueued = new OccasionalWarning(
      (message) => this.logger.warn(message),
      () => clock.nowMs(),
    );
  }

  async receive(headers: WebhookHeaders, rawBody: Buffer | undefined): Promise<WebhookReceipt> {
    const detected = detectWebhookForge(headers);
    if (!detected) throw unrecognized();
    if (!rawBody || rawBody.length === 0) throw badRequest('bad-request', 'the delivery has no body');
    const { adapter, envelope } = detected;
    const payload = this.parse(rawBody);
    const plugin = await this.pluginOf(adapter, payload);
    if (!plugin || !(await this.verified(adapter, plugin, headers, rawBody))) {
      this.logger.warn(`refused an unverified ${adapter.label} ${envelope.event} delivery`);
      throw unverified();
    }

    const event = adapter.parseWebhook(envelope.event, payload);
    if (event.kind === 'ping') return { status: 204, body: undefined };
    if (event.kind === 'ignored') return { status: 200, body: { status: 'ignored', detail: event.why, id: null } };
    const payloadSha256 = createHash('sha256').update(rawBody).digest('hex');
    const stored = await this.deliveries.insertQueued(
      {
        pluginId: plugin.id,
        provider: adapter.type,
        deliveryId: (envelope.deliveryId ?? `sha256:${payloadSha256}`).slice(0, 200),
        event: envelope.event.slice(0, 64),
        source: 'webhook',
        repoUrl: plugin.repoUrl,
        tag: event.tag.slice(0, 255),
        assets: event.assets && event.assets.length > 0 ? event.assets : null,
        payloadSha256,
      },
      this.clock.now(),
    );
    if (!stored)
      return { status: 200, body: { status: 'duplicate', detail: 'this delivery was received before; it is processed once', id: null } };
    // Stored is what 202 promises: a job that cannot be queued now is queued by the worker's next
    // pass that gets through (the database went away between the two).
    await this.worker
      .enqueue([stored.id])
      .catch((error: unknown) =>
        this.unqueued.say(
          `deliveries stored but not queued yet, queued by the next pass that gets through (said at most once a minute): ${(error as Error).message}`,
        ),
      );
    return {
      status: 202,
      body: { status: 'queued', detail: `release ${event.tag} of "${plugin.slug}" is queued for ingest`, id: stored.id },
    };
  }

  private parse(rawBody: Buffer): unknown {
    try {
      return JSON.parse(rawBody.toString('utf8'));
    } catch {
      throw badRequest('bad-request', 'the delivery body is not JSON');
    }
  }

  private async pluginOf(adapter: ForgeAdapter, payload: unknown): Promise<PluginEntity | null> {
    const repoUrl = adapter.webhookRepositoryUrl(payload);
    if (!repoUrl) return null;
    const parsed = parseRepoUrl(repoUrl, { forges: this.forges.all() });
    return parsed.ok ? this.plugins.findByRepoIdentity(parsed.identity) : null;
  }

  private async verified(adapter: ForgeAdapter, plugin: PluginEntity, headers: WebhookHeaders, rawBody: Buffer): Promise<boolean> {
    const sealed = await this.secrets.sealedSecret(plugin.id);
    if (!sealed) return false;
    let secret: string;
    try {
      secret = openWebhookSecret(this.config.keyEncryptionKey, plugin.id, sealed);
    } catch {
      this.logger.error(`the webhook secret of "${plugin.slug}" cannot be decrypted (KEY_ENCRYPTION_KEY changed?)`);
      return false;
    }
    return secret.length >= MIN_WEBHOOK_SECRET_LENGTH && adapter.verifyWebhook(headers, rawBody, secret);
  }
}
