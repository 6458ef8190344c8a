import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { SettingsService } from '../../platform/settings/settings.service';
import { DeliveryWorker } from './delivery-worker';
import { Reconciler } from './reconciler';

/** While reconciling is off (interval 0), how often the setting is looked at again. */
const OFF_RECHECK_MS = 60_000;
/** Node timers hold at most 2^31-1 ms; a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Starts the delivery worker with the server (resuming unfinished deliveries) and the periodic
 * reconciler (setting `webhooks.reconcile_interval_s`, read afresh before every pass), and stops
 * both before the database closes.
 */
@Injectable()
export class WebhooksLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly worker: DeliveryWorker,
    private readonly reconciler: Reconciler,
    private readonly settings: SettingsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.start();
    if (!this.worker.options.autoStart) return;
    await this.scheduleReconcile();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.worker.stop();
  }

  private async scheduleReconcile(): Promise<void> {
    if (this.stopped) return;
    const seconds = await this.settings.get('webhooks.reconcile_interval_s');
    this.timer = setTimeout(() => void this.reconcile(seconds > 0), seconds > 0 ? Math.min(seconds * 1000, MAX_TIMER_MS) : OFF_RECHECK_MS);
    this.timer.unref();
  }

  private async reconcile(enabled: boolean): Promise<void> {
    try {
      if (enabled && !this.stopped) {
        const queued = await this.reconciler.reconcileAll();
        if (queued) this.logger.log(`reconciling queued ${queued} release(s) no delivery had brought`);
      }
    } catch (error) {
      this.logger.error(`reconciling webhook plugins failed: ${(error as Error).message}`);
    } finally {
      await this.scheduleReconcile().catch(() => undefined);
    }
  }
}
