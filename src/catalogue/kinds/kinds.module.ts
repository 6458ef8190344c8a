import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { AuthModule } from '../../platform/auth/auth.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { AdminExtensionFieldsController } from './admin-extension-fields.controller';
import { AdminKindsController } from './admin-kinds.controller';
import { AdminKindsService } from './admin-kinds.service';
import { KindsController } from './kinds.controller';
import { KindsRepository } from './kinds.repository';
import { KindsService } from './kinds.service';

@Module({
  imports: [SettingsModule, AuthModule],
  controllers: [KindsController, AdminKindsController, AdminExtensionFieldsController],
  providers: [repositoryProvider(KindsRepository), KindsService, AdminKindsService],
  exports: [KindsService],
})
export class KindsModule {}
