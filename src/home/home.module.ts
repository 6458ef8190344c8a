import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { HomeController } from './home.controller';
import { HomeService } from './home.service';

@Module({ imports: [SettingsModule], controllers: [HomeController], providers: [HomeService] })
export class HomeModule {}
