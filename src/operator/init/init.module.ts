import { Module } from '@nestjs/common';
import { AuthModule } from '../../platform/auth/auth.module';
import { ForgeAdminModule } from '../forge-admin/forge-admin.module';
import { SettingsModule } from '../../platform/settings/settings.module';
import { InitController } from './init.controller';
import { InitService } from './init.service';

@Module({ imports: [AuthModule, SettingsModule, ForgeAdminModule], controllers: [InitController], providers: [InitService] })
export class InitModule {}
