import { Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/config.types';
import { UpstreamLog } from './upstream-log';
import { UPSTREAM_LOG_TRANSPORT, upstreamLogTransport } from './upstream-log-transport';

/**
 * A mirror's transparency log (MIRROR_OF): upstream's, read through read-only. The log's public
 * routes (src/trust/transparency) hand every read to UpstreamLog on a mirror. See docs/mirror.md.
 */
@Module({
  providers: [
    {
      provide: UPSTREAM_LOG_TRANSPORT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => upstreamLogTransport(config.fetchAllowHosts, config.mirrorLogTimeoutMs),
    },
    UpstreamLog,
  ],
  exports: [UpstreamLog],
})
export class MirrorLogModule {}
