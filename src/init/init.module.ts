import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SettingsModule } from '../settings/settings.module';
import { InitController } from './init.controller';
import { InitService } from './init.service';

@Module({ imports: [AuthModule, SettingsModule], controllers: [InitController], providers: [InitService] })
export class InitModule {}
