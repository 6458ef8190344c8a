import { AppSettingEntity } from './app-setting.entity';
import { SettingsVersionEntity } from './settings-version.entity';

/** The tables this feature owns; src/database/entities.ts gathers every feature's list. */
export const SETTINGS_ENTITIES = [AppSettingEntity, SettingsVersionEntity];
