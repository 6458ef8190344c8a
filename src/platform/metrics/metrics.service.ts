import { Injectable } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsRepository } from './metrics.repository';

@Injectable()
export class MetricsService {
  constructor(
    private readonly metrics: Metrics,
    repository: MetricsRepository,
  ) {
    metrics.scrapeFrom({ deliveriesByStatus: () => repository.deliveriesByStatus(), pool: () => repository.pool() });
  }

  /** The Prometheus text exposition of every instrument. */
  scrape(): Promise<string> {
    return this.metrics.render();
  }
}
