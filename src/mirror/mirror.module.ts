import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AuthModule } from '../auth/auth.module';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config.types';
import { IntegrityModule } from '../integrity/integrity.module';
import { repositoryProvider } from '../persistence/repository-provider';
import { PluginsModule } from '../plugins/plugins.module';
import { MirrorAdminService } from './mirror-admin.service';
import { MirrorController } from './mirror.controller';
import { MirrorRepository } from './mirror.repository';
import { MirrorService, UPSTREAM_READER } from './mirror.service';
import { ReadOnlyMirrorGuard } from './read-only.guard';
import { upstreamReader } from './upstream-fetch';

/**
 * Mirror mode (MIRROR_OF, `registry serve --mirror-of`): the follower that copies an upstream
 * registry's releases and keys after re-verifying them, the global read-only guard, and the admin
 * status route. Inert on a registry that mirrors nothing. See docs/mirror.md.
 */
@Module({
  imports: [AuthModule, IntegrityModule, PluginsModule],
  controllers: [MirrorController],
  providers: [
    repositoryProvider(MirrorRepository),
    { provide: UPSTREAM_READER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => upstreamReader(config.fetchAllowHosts) },
    MirrorService,
    MirrorAdminService,
    { provide: APP_GUARD, useClass: ReadOnlyMirrorGuard },
  ],
  exports: [MirrorService],
})
export class MirrorModule {}
