import { Module } from '@nestjs/common';
import { CliDownloadController } from './cli-download.controller';
import { CLI_BUNDLE_FILE, CliDownloadService } from './cli-download.service';

/** GET /cli/registry.js and its checksum: the single-file CLI built into dist/ by `npm run build`. */
@Module({
  controllers: [CliDownloadController],
  providers: [{ provide: CliDownloadService, useFactory: () => new CliDownloadService(CLI_BUNDLE_FILE) }],
})
export class CliDownloadModule {}
