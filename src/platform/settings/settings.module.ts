import { Module } from '@nestjs/common';
import { repositoryProvider } from '../../persistence/repository-provider';
import { SettingsChangeBus } from './settings-change-bus';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

/**
 * Typed operator settings. SettingsRepository stays exported only for keys kept outside the
 * typed registry (`extension_fields.global`, edited by the kinds admin API).
 */
@Module({
  providers: [repositoryProvider(SettingsRepository), SettingsChangeBus, SettingsService],
  exports: [SettingsService, SettingsRepository],
})
export class SettingsModule {}
