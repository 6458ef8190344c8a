import { Inject, Injectable } from '@nestjs/common';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Clock, RandomSource } from '../../common/clock';
import { conflict, notFound, upstreamFailed } from '../../common/errors/domain-error';
import { AssetFetchError } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { DeliveriesRepository } from './deliveries.repository';
import { toDeliveryDto } from './delivery.mapper';
import { DeliveryWorker } from './delivery-worker';
import type { DeliveryDto, DeliveryListDto, ReconcileResultDto, WebhookSecretDto } from './dto/delivery.dto';
import { PluginAccess } from './plugin-access';
import { RateLimitGate } from '../../platform/rate-limit/rate-limit-gate';
import { PluginWebhooksRepository } from './plugin-webhooks.repository';
import { Reconciler } from './reconciler';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secret';

const RECENT = 50;

/** What owners (and admins) see and do about a plugin's deliveries, and the owner's secret rotation. */
@Injectable()
export class DeliveriesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly access: PluginAccess,
    private readonly deliveries: DeliveriesRepository,
    private readonly webhooks: PluginWebhooksRepository,
    private readonly worker: DeliveryWorker,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly reconciler: Reconciler,
    private readonly limits: RateLimitGate,
  ) {}

  async list(auth: AuthContext, slug: string): Promise<DeliveryListDto> {
    const plugin = await this.access.require(auth, slug);
    return { deliveries: (await this.deliveries.recentForPlugin(plugin.id, RECENT)).map(toDeliveryDto) };
  }

  /** Puts a failed delivery back in the queue, to be ingested once the cause is fixed. */
  async replay(auth: AuthContext, slug: string, id: string): Promise<DeliveryDto> {
    const plugin = await this.access.require(auth, slug);
    const delivery = await this.deliveries.findForPlugin(id, plugin.id);
    if (!delivery) throw notFound(`no delivery ${id} of "${slug}"`);
    if (!(await this.deliveries.requeueFailed(id, plugin.id, this.clock.now())))
      throw conflict('delivery-not-failed', `delivery ${id} is ${delivery.status}, not failed`);
    await this.worker.enqueue([id]);
    return toDeliveryDto((await this.deliveries.findForPlugin(id, plugin.id))!);
  }

  /**
   * Queues the plugin's recent forge releases that the registry lacks (owners and admins). The
   * cooldown is the plugin's, not the caller's: each reconcile spends the forge's API quota on the
   * same repository, and a second one right after finds nothing new, whoever asks. It starts only
   * once access is granted, so nobody else can spend it.
   */
  async reconcile(auth: AuthContext, slug: string): Promise<ReconcileResultDto> {
    const plugin = await this.access.require(auth, slug);
    await this.limits.cooldown('reconcile', `plugin:${plugin.id}`, `reconciling "${slug}"`);
    try {
      const tags = await this.reconciler.reconcilePlugin(plugin);
      return { queued: tags.length, tags };
    } catch (error) {
      if (error instanceof AssetFetchError) throw upstreamFailed('forge-fetch-failed', error.message);
      throw error;
    }
  }

  /** A new secret, returned this once; the old one stops verifying at once. */
  async rotateSecret(auth: AuthContext, slug: string): Promise<WebhookSecretDto> {
    const plugin = await this.access.require(auth, slug, true);
    const secret = generateWebhookSecret(this.random);
    await this.webhooks.upsert(plugin.id, sealWebhookSecret(this.config.keyEncryptionKey, plugin.id, secret), false);
    return { slug, webhookUrl: webhookUrl(this.config.baseUrl), webhookSecret: secret };
  }
}

export function webhookUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/api/webhooks/release`;
}
