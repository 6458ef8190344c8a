import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { MetricsAccessGuard } from './metrics-access.guard';
import { MetricsRepository } from './metrics.repository';
import { MetricsService } from './metrics.service';

/** `GET /metrics` and the instruments other modules record into (global: ingest, the HTTP pipeline). */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [{ provide: Metrics, useFactory: () => new Metrics() }, MetricsRepository, MetricsService, MetricsAccessGuard],
  exports: [Metrics],
})
export class MetricsModule {}
