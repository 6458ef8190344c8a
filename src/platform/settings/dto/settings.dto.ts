import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { type SettingDefinition, SETTING_DEFINITIONS, SETTING_KEYS, type SettingKey, type SettingValues } from '../setting-definitions';

/** How one setting is typed and bounded, as `GET /api/admin/settings` describes it. */
export interface SettingDefinitionDto {
  type: SettingDefinition['type'];
  default: unknown;
  public: boolean;
  description: string;
  /** Environment variable the default comes from, when it is configuration. */
  defaultFrom?: string;
  values?: [0, 1];
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

/** Every declared setting at its current value (a flat object), plus how each is typed. */
export type SettingsDto = SettingValues & { definitions: Record<SettingKey, SettingDefinitionDto> };

function valueSchema(definition: SettingDefinition): SchemaObject {
  switch (definition.type) {
    case 'flag':
      return { type: 'integer', enum: [0, 1], description: definition.description };
    case 'integer':
      return { type: 'integer', minimum: definition.min, maximum: definition.max, description: definition.description };
    case 'string':
      return { type: 'string', minLength: definition.minLength, maxLength: definition.maxLength, description: definition.description };
    case 'file-name[]':
      return {
        type: 'array',
        items: { type: 'string', maxLength: definition.maxLength },
        minItems: definition.minItems,
        maxItems: definition.maxItems,
        description: definition.description,
      };
  }
}

/** The OpenAPI schema of a PATCH body: any subset of the keys (flags also take true/false). */
export function settingsPatchSchema(): SchemaObject {
  const properties = Object.fromEntries(
    SETTING_KEYS.map((key) => {
      const definition = SETTING_DEFINITIONS[key];
      const schema = valueSchema(definition);
      return [key, definition.type === 'flag' ? { oneOf: [schema, { type: 'boolean' }], description: definition.description } : schema];
    }),
  );
  return { type: 'object', properties, additionalProperties: false, example: { 'manifest.require_release_asset': 0 } };
}

export function settingsSchema(): SchemaObject {
  const properties: Record<string, SchemaObject> = Object.fromEntries(
    SETTING_KEYS.map((key) => [key, valueSchema(SETTING_DEFINITIONS[key])]),
  );
  properties.definitions = {
    type: 'object',
    description: 'For each key: type, default, bounds, whether it is public, description',
    additionalProperties: { type: 'object' },
  };
  return { type: 'object', properties, required: [...SETTING_KEYS, 'definitions'] };
}
