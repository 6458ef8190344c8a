import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { AuditService } from '../../platform/audit/audit.service';
import type { AuthContext } from '../../platform/auth/auth-context';
import { Clock, RandomSource } from '../../common/clock';
import { badRequest, conflict, forbidden, notFound } from '../../common/errors/domain-error';
import { AssetFetchError, vetUrl } from '../../common/fetch';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { KindsService } from '../../catalogue/kinds/kinds.service';
import { PluginsRepository } from '../../catalogue/plugins/plugins.repository';
import type {
  CreatedSubscriptionDto,
  CreateSubscriptionDto,
  PingResultDto,
  SubscriptionDeliveryDto,
  SubscriptionDeliveryListDto,
  SubscriptionDto,
  SubscriptionListDto,
} from './dto/subscription.dto';
import type { SubscriptionEntity } from './entities/subscription.entity';
import { isAdminEventType } from './event-types';
import { generateSigningSecret, openSigningSecret, sealSigningSecret } from './signing-secret';
import { SubscriptionDeliveriesRepository } from './subscription-deliveries.repository';
import { SubscriptionWorker } from './subscription-worker';
import { toSubscriptionDeliveryDto, toSubscriptionDto } from './subscriptions.mapper';
import { SubscriptionsRepository } from './subscriptions.repository';
import { WebhookSender } from './webhook-sender';

export const MAX_SUBSCRIPTIONS_PER_USER = 25;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A signed-in user's outbound webhook subscriptions, their delivery log, replays and pings. */
@Injectable()
export class SubscriptionsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly deliveries: SubscriptionDeliveriesRepository,
    private readonly plugins: PluginsRepository,
    private readonly kinds: KindsService,
    private readonly worker: SubscriptionWorker,
    private readonly sender: WebhookSender,
    private readonly audit: AuditService,
    private readonly clock: Clock,
    private readonly random: RandomSource,
  ) {}

  async create(auth: AuthContext, input: CreateSubscriptionDto, ip: string | null): Promise<CreatedSubscriptionDto> {
    const admin = auth.user.role === 'admin';
    const adminOnly = input.events.filter(isAdminEventType);
    if (!admin && adminOnly.length) throw forbidden(`only admins may subscribe to ${adminOnly.join(', ')}`);
    if (!admin && input.scope === 'registry') throw forbidden('only admins may subscribe to every plugin (scope registry)');
    const target = await this.checkTarget(input);
    await this.checkUrl(input.url);
    const secret = generateSigningSecret(this.random);
    const events = [...new Set(input.events)];
    const row = await this.subscriptions.inUserTransaction(auth.user.id, async (manager) => {
      if ((await this.subscriptions.count(auth.user.id, manager)) >= MAX_SUBSCRIPTIONS_PER_USER) {
        throw conflict('subscription-limit-reached', `at most ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions per user; delete one first`);
      }
      const inserted = await this.subscriptions.insert(
        { userId: auth.user.id, url: input.url, description: input.description ?? null, events, scope: input.scope, target },
        (id) => sealSigningSecret(this.config.keyEncryptionKey, id, secret),
        manager,
      );
      await this.audit.record(
        {
          action: 'subscription.create',
          actor: { userId: auth.user.id, ip },
          slug: input.scope === 'plugin' ? target : null,
          details: { subscriptionId: inserted.id, host: new URL(input.url).host, events, scope: input.scope, target },
        },
        manager,
      );
      return inserted;
    });
    return { subscription: toSubscriptionDto(row), secret };
  }

  async list(auth: AuthContext): Promise<SubscriptionListDto> {
    return { subscriptions: (await this.subscriptions.listForUser(auth.user.id)).map(toSubscriptionDto) };
  }

  async get(auth: AuthContext, id: string): Promise<SubscriptionDto> {
    return toSubscriptionDto(await this.own(auth, id));
  }

  async remove(auth: AuthContext, id: string, ip: string | null): Promise<void> {
    const row = await this.own(auth, id);
    await this.subscriptions.inUserTransaction(auth.user.id, async (manager) => {
      await this.subscriptions.delete(row.id, manager);
      await this.audit.record(
        {
          action: 'subscription.delete',
          actor: { userId: auth.user.id, ip },
          details: { subscriptionId: row.id, host: new URL(row.url).host },
        },
        manager,
      );
    });
  }

  /** Enables a disabled subscription again; its queued deliveries go out again. */
  async enable(auth: AuthContext, id: string, ip: string | null): Promise<SubscriptionDto> {
    const row = await this.own(auth, id);
    if (!row.disabledAt) throw conflict('subscription-enabled', 'the subscription is not disabled');
    await this.subscriptions.inUserTransaction(auth.user.id, async (manager) => {
      await this.subscriptions.enable(row.id, manager);
      await this.audit.record(
        { action: 'subscription.enable', actor: { userId: auth.user.id, ip }, details: { subscriptionId: row.id } },
        manager,
      );
    });
    this.worker.kick();
    return toSubscriptionDto(await this.own(auth, id));
  }

  async listDeliveries(auth: AuthContext, id: string, page: number, limit: number): Promise<SubscriptionDeliveryListDto> {
    const row = await this.own(auth, id);
    const { deliveries, total } = await this.deliveries.page(row.id, page, limit);
    return { deliveries: deliveries.map(toSubscriptionDeliveryDto), page, limit, total };
  }

  /** Queues a finished (succeeded or failed) delivery again now (same event, same `webhook-id`). */
  async replay(auth: AuthContext, id: string, deliveryId: string): Promise<SubscriptionDeliveryDto> {
    const row = await this.own(auth, id);
    if (!UUID.test(deliveryId) || !(await this.deliveries.findWithEvent(deliveryId, row.id))) throw notFound('no such delivery');
    if (!(await this.deliveries.requeue(deliveryId, row.id, this.clock.now())))
      throw conflict('delivery-not-finished', 'only a succeeded or failed delivery can be replayed; this one is queued or under way');
    this.worker.kick();
    return toSubscriptionDeliveryDto((await this.deliveries.findWithEvent(deliveryId, row.id))!);
  }

  /** Sends a signed `webhook.ping` now and answers the receiver's status and the time taken (never its answer); nothing is logged. */
  async ping(auth: AuthContext, id: string): Promise<PingResultDto> {
    const row = await this.own(auth, id);
    const sealed = await this.subscriptions.sealedSecret(row.id);
    let secret: string;
    try {
      secret = openSigningSecret(this.config.keyEncryptionKey, row.id, sealed!);
    } catch {
      throw conflict(
        'signing-secret-unreadable',
        'the signing secret cannot be opened (was KEY_ENCRYPTION_KEY changed?); delete the subscription and create it again',
      );
    }
    const now = this.clock.now();
    const body = Buffer.from(JSON.stringify({ type: 'webhook.ping', timestamp: now.toISOString(), data: { subscriptionId: row.id } }));
    const result = await this.sender.send(row.url, secret, `ping_${randomUUID()}`, body, Math.floor(now.getTime() / 1000));
    return { ok: result.ok, responseStatus: result.status, detail: result.detail, durationMs: result.durationMs };
  }

  private async own(auth: AuthContext, id: string): Promise<SubscriptionEntity> {
    const row = UUID.test(id) ? await this.subscriptions.findForUser(id, auth.user.id) : null;
    if (!row) throw notFound('no such subscription of yours');
    return row;
  }

  private async checkTarget(input: CreateSubscriptionDto): Promise<string | null> {
    if (input.scope === 'plugin') {
      if (!(await this.plugins.findBySlug(input.target!)))
        throw badRequest('validation-failed', 'no such plugin', [{ path: '/target', message: `target: no plugin "${input.target}"` }]);
      return input.target!;
    }
    if (input.scope === 'kind') {
      if (!(await this.kinds.enabledKeys()).includes(input.target!))
        throw badRequest('validation-failed', 'no such kind', [{ path: '/target', message: `target: no kind "${input.target}"` }]);
      return input.target!;
    }
    if (input.target !== undefined)
      throw badRequest('validation-failed', 'target is only for scopes plugin and kind', [
        { path: '/target', message: `target: must be absent for scope ${input.scope}` },
      ]);
    return null;
  }

  /**
   * https (http only for SUBSCRIPTION_ALLOW_HOSTS), no credentials, no private address: what the
   * sender will accept (it checks every address again at each delivery, as DNS may change).
   * FETCH_ALLOW_HOSTS plays no part: the registry's own fetches may reach an internal forge, but a
   * user's subscription must not inherit that reach.
   */
  private async checkUrl(url: string): Promise<void> {
    const refuse = (message: string) => badRequest('validation-failed', `url: ${message}`, [{ path: '/url', message: `url: ${message}` }]);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw refuse('must be an absolute http(s) URL');
    }
    if (parsed.username || parsed.password) throw refuse('must not contain credentials');
    try {
      await vetUrl(parsed.href, { allowHosts: this.config.subscriptionAllowHosts, timeoutMs: 5_000 });
    } catch (error) {
      // Never echo what a host resolves to (internal DNS): a refused address is told generically,
      // and so is a refused scheme (the fetcher's own message names FETCH_ALLOW_HOSTS).
      if (error instanceof AssetFetchError && error.reason === 'refused-address') throw refuse('must resolve to a public address');
      if (error instanceof AssetFetchError && error.reason === 'refused-scheme') throw refuse('must be an https URL');
      // A name that does not resolve is told as a refused one: otherwise the difference would say
      // which internal names exist.
      throw refuse('must resolve to a public address');
    }
  }
}
