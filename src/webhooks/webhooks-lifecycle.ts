import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DeliveryWorker } from './delivery-worker';

/** Starts the delivery worker with the server (resuming unfinished deliveries) and stops it before the database closes. */
@Injectable()
export class WebhooksLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly worker: DeliveryWorker) {}

  onApplicationBootstrap(): void {
    if (this.worker.options.autoStart) this.worker.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker.stop();
  }
}
