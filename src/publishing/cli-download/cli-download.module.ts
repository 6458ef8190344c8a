import { Module } from '@nestjs/common';
import { CiTemplatesController } from './ci-templates/ci-templates.controller';
import { CiTemplatesService } from './ci-templates/ci-templates.service';
import { CliDownloadController } from './cli-download.controller';
import { CLI_BUNDLE_FILE, CliDownloadService } from './cli-download.service';

/**
 * GET /cli/registry.js and its checksum: the single-file CLI built into dist/ by `npm run build`;
 * and the CI publish workflows that pin its SHA-256 (/cli/ci/*, /api/ci/templates).
 */
@Module({
  controllers: [CliDownloadController, CiTemplatesController],
  providers: [{ provide: CliDownloadService, useFactory: () => new CliDownloadService(CLI_BUNDLE_FILE) }, CiTemplatesService],
})
export class CliDownloadModule {}
