import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ReadReplicas } from '../persistence/read-replicas';

/**
 * Starts the read replicas' probe with the server: the first probe runs before the server listens
 * (a replica that does not answer is marked down, never fatal), then one every
 * DATABASE_READ_PROBE_INTERVAL_MS takes a recovered replica back.
 */
@Injectable()
export class ReadReplicaProbe implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly replicas: ReadReplicas) {}

  async onApplicationBootstrap(): Promise<void> {
    const logger = new Logger('ReadReplicas');
    await this.replicas.start({ log: (message) => logger.log(message), warn: (message) => logger.warn(message) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.replicas.stop();
  }
}
