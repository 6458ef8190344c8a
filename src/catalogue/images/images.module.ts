import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { SettingsModule } from '../../platform/settings/settings.module';
import { ImageFetchPolicy } from './image-fetch-policy';
import { ImageProxyService } from './image-proxy.service';
import { ImagesController } from './images.controller';
import { ImagesRepository } from './images.repository';
import { ImagesService } from './images.service';
import { ImageStore } from './image-store';
import { PictureFetcher } from './picture-fetcher';

/**
 * Pictures: icons and screenshots fetched at ingest (PictureFetcher, used by the ingest) and
 * stored by the hash of their encodings, served at `/images/<sha256>.webp`; and the signed
 * README image proxy at `/image-proxy`.
 */
@Module({
  imports: [SettingsModule],
  controllers: [ImagesController],
  providers: [repositoryProvider(ImagesRepository), ImageFetchPolicy, PictureFetcher, ImageStore, ImagesService, ImageProxyService],
  exports: [ImagesRepository, PictureFetcher, ImageStore],
})
export class ImagesModule {}
