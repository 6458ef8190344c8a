import type { AppConfig } from '../../config/config.types';
import type { SettingDefinitionDto, SettingsDto } from './dto/settings.dto';
import { defaultValue, type SettingDefinition, SETTING_DEFINITIONS, SETTING_KEYS, type SettingValues } from './setting-definitions';

export function toSettingDefinitionDto(definition: SettingDefinition, config: Pick<AppConfig, 'hashBudgetBytes'>): SettingDefinitionDto {
  const common = {
    type: definition.type,
    default: defaultValue(definition, config),
    public: definition.public,
    description: definition.description,
  };
  switch (definition.type) {
    case 'flag':
      return { ...common, values: [0, 1] };
    case 'integer':
      return {
        ...common,
        ...(typeof definition.default === 'object' ? { defaultFrom: definition.default.variable } : {}),
        min: definition.min,
        max: definition.max,
      };
    case 'string':
      return { ...common, minLength: definition.minLength, maxLength: definition.maxLength };
    case 'file-name[]':
      return { ...common, minItems: definition.minItems, maxItems: definition.maxItems, maxLength: definition.maxLength };
  }
}

export function toSettingsDto(values: SettingValues, config: Pick<AppConfig, 'hashBudgetBytes'>): SettingsDto {
  const definitions = Object.fromEntries(SETTING_KEYS.map((key) => [key, toSettingDefinitionDto(SETTING_DEFINITIONS[key], config)]));
  return { ...values, definitions } as SettingsDto;
}
