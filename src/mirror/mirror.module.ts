import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from '../platform/auth/auth.module';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { ImagesModule } from '../catalogue/images/images.module';
import { IngestModule } from '../publishing/ingest/ingest.module';
import { IntegrityModule } from '../trust/integrity/integrity.module';
import { MirrorLogModule } from '../trust/mirror-log/mirror-log.module';
import { repositoryProvider } from '../persistence/repository-provider';
import { PluginsModule } from '../catalogue/plugins/plugins.module';
import { SettingsModule } from '../platform/settings/settings.module';
import { MirrorAdminService } from './mirror-admin.service';
import { MirrorController } from './mirror.controller';
import { MirrorRepository } from './mirror.repository';
import { MirrorService } from './mirror.service';
import { MirroredReleaseWriter } from './mirrored-release-writer';
import { ReadOnlyMirrorGuard } from './read-only.guard';
import { UPSTREAM_READER, upstreamReader } from './upstream-fetch';
import { UpstreamPresentationReader } from './upstream-presentation';

/**
 * Mirror mode (MIRROR_OF, `registry serve --mirror-of`): the follower that copies an upstream
 * registry's releases and keys after re-verifying them, the global read-only guard, and the admin
 * status route. Inert on a registry that mirrors nothing. See docs/mirror.md.
 */
@Module({
  imports: [AuthModule, ImagesModule, IngestModule, IntegrityModule, MirrorLogModule, PluginsModule, SettingsModule],
  controllers: [MirrorController],
  providers: [
    repositoryProvider(MirrorRepository),
    { provide: UPSTREAM_READER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => upstreamReader(config.fetchAllowHosts) },
    UpstreamPresentationReader,
    MirroredReleaseWriter,
    MirrorService,
    MirrorAdminService,
    { provide: APP_GUARD, useClass: ReadOnlyMirrorGuard },
  ],
  exports: [MirrorService],
})
export class MirrorModule {}
