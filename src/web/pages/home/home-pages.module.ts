import { Module } from '@nestjs/common';
import { WebCoreModule } from '../../web-core.module';
import { HomePageController } from './home.controller';
import { HomePages } from './home.pages';

@Module({ imports: [WebCoreModule], controllers: [HomePageController], providers: [HomePages] })
export class HomePagesModule {}
