import { FORBIDDEN_KEYS } from './constants';
import { EXTENSION_KEY_PATTERN } from './declarations';
import { declarationRule, kindsDeclaring, registryFields } from './registry-fields';
import type { RegistryOptions } from './registry-fields';
import { REQUIRED_SPEC_FIELDS, SPEC_MANIFEST_FIELDS } from './rules';
import type { ValueRule } from './rules';

export type JsonSchema = { [keyword: string]: unknown } | boolean;

export interface ManifestSchemaOptions extends RegistryOptions {
  /** The schema's `$id`, usually the URL it is served from. */
  id?: string;
}

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

function withDescription(schema: { [keyword: string]: unknown }, description: string | undefined): { [keyword: string]: unknown } {
  return description === undefined ? schema : { description, ...schema };
}

/** The JSON Schema form of one rule. Rules without a schema keyword (semver ranges) are described in words. */
export function ruleSchema(rule: ValueRule): { [keyword: string]: unknown } {
  switch (rule.type) {
    case 'string': {
      const schema: { [keyword: string]: unknown } = { type: 'string' };
      if (rule.minLength !== undefined) schema.minLength = rule.minLength;
      if (rule.maxLength !== undefined) schema.maxLength = rule.maxLength;
      if (rule.pattern) schema.pattern = rule.pattern.source;
      if (rule.enum) schema.enum = [...rule.enum];
      const semverNote = rule.semverRange ? ' Must also be a valid semver range or version (not expressible here).' : '';
      return withDescription(schema, rule.description === undefined ? undefined : rule.description + semverNote);
    }
    case 'number': {
      const schema: { [keyword: string]: unknown } = { type: 'number' };
      if (rule.minimum !== undefined) schema.minimum = rule.minimum;
      if (rule.maximum !== undefined) schema.maximum = rule.maximum;
      if (rule.enum) schema.enum = [...rule.enum];
      return withDescription(schema, rule.description);
    }
    case 'boolean':
      return withDescription({ type: 'boolean' }, rule.description);
    case 'array': {
      const schema: { [keyword: string]: unknown } = { type: 'array', items: ruleSchema(rule.items) };
      if (rule.maxItems !== undefined) schema.maxItems = rule.maxItems;
      return withDescription(schema, rule.description);
    }
    case 'object': {
      const properties = Object.fromEntries(Object.entries(rule.properties).map(([key, member]) => [key, ruleSchema(member)]));
      const schema: { [keyword: string]: unknown } = { type: 'object', properties, additionalProperties: false };
      if (rule.required.length > 0) schema.required = [...rule.required];
      return withDescription(schema, rule.description);
    }
    case 'map':
      return withDescription(
        {
          type: 'object',
          patternProperties: { [rule.keyPattern.source]: ruleSchema(rule.values) },
          additionalProperties: false,
          ...(rule.maxProperties !== undefined ? { maxProperties: rule.maxProperties } : {}),
        },
        rule.description,
      );
  }
}

/** EXTENSION_KEY_PATTERN without the keys no manifest may hold. */
const UNDECLARED_EXTENSION_KEY = `^(?!(?:${[...FORBIDDEN_KEYS].join('|')})$)${EXTENSION_KEY_PATTERN.source.slice(1)}`;

function kindIn(kinds: readonly string[]): JsonSchema {
  return { required: ['kind'], properties: { kind: { enum: [...kinds] } } };
}

/**
 * The manifest as a draft 2020-12 JSON Schema, built from the same rules as the validator.
 * Kind-specific extension fields become `if`/`then` branches: a kind's fields apply only under that
 * kind, a field only some kinds declare requires one of them, and a kind's declaration replaces the
 * global one of the same name. Consistency rules (tag, slug) and semver ranges are not in it.
 */
export function manifestJsonSchema(options: ManifestSchemaOptions = {}): { [keyword: string]: unknown } {
  const fields = registryFields(options);
  const properties: Record<string, JsonSchema> = {};
  for (const [key, rule] of Object.entries(SPEC_MANIFEST_FIELDS)) properties[key] = ruleSchema(key === 'kind' ? fields.kindRule : rule);
  const required = [...REQUIRED_SPEC_FIELDS];
  const allOf: JsonSchema[] = [];

  for (const [key, declaration] of fields.global) {
    const owners = kindsDeclaring(fields, key);
    const globalSchema = ruleSchema(declarationRule(declaration));
    if (owners.length === 0) {
      properties[key] = globalSchema;
      if (declaration.required) required.push(key);
    } else {
      properties[key] = true;
      const otherwise: { [keyword: string]: unknown } = { properties: { [key]: globalSchema } };
      if (declaration.required) otherwise.required = [key];
      allOf.push({ if: kindIn(owners), else: otherwise });
    }
  }
  for (const [kind, own] of fields.byKind) {
    if (own.size === 0) continue;
    const then: { [keyword: string]: unknown } = {
      properties: Object.fromEntries([...own].map(([key, declaration]) => [key, ruleSchema(declarationRule(declaration))])),
    };
    const ownRequired = [...own.values()].filter((declaration) => declaration.required).map((declaration) => declaration.key);
    if (ownRequired.length > 0) then.required = ownRequired;
    allOf.push({ if: kindIn([kind]), then });
    for (const key of own.keys()) {
      if (fields.global.has(key) || Object.hasOwn(properties, key)) continue;
      properties[key] = true;
      allOf.push({ if: { required: [key] }, then: kindIn(kindsDeclaring(fields, key)) });
    }
  }

  const schema: { [keyword: string]: unknown } = { $schema: JSON_SCHEMA_DIALECT };
  if (options.id !== undefined) schema.$id = options.id;
  Object.assign(schema, {
    title: 'Plugin manifest',
    type: 'object',
    properties,
    required,
    // Without the kinds, a key shaped like an extension field may be one the registry declares;
    // its value is unchecked but for what canonical JSON refuses (an integer beyond ±(2^53-1)).
    ...(fields.kindsKnown
      ? {}
      : { patternProperties: { [UNDECLARED_EXTENSION_KEY]: { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } } }),
    additionalProperties: false,
  });
  if (allOf.length > 0) schema.allOf = allOf;
  return schema;
}
