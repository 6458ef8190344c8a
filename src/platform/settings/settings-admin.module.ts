import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SettingsAdminController } from './settings-admin.controller';
import { SettingsModule } from './settings.module';

/**
 * `GET|PATCH /api/admin/settings`, apart from SettingsModule so that modules the admin guard
 * depends on (auth, and the rate limits it will read) can read settings without a cycle.
 */
@Module({
  imports: [SettingsModule, AuthModule],
  controllers: [SettingsAdminController],
})
export class SettingsAdminModule {}
