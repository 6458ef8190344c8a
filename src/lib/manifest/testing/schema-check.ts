/**
 * A small JSON Schema (draft 2020-12) evaluator for tests: exactly the keywords the manifest schema
 * uses, so the schema can be checked against the validator without installing a schema library.
 * Any other keyword is an error rather than silently ignored, so the schema cannot outgrow it.
 */

type Schema = { [keyword: string]: unknown } | boolean;

const ANNOTATIONS = new Set(['$schema', '$id', 'title', 'description']);
const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'items',
  'maxItems',
  'maxProperties',
  'properties',
  'patternProperties',
  'additionalProperties',
  'required',
  'allOf',
  'if',
  'then',
  'else',
]);

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  // NaN and the infinities are not JSON values, so they are of no JSON type.
  if (typeof value === 'number') return !Number.isFinite(value) ? 'not JSON' : Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = jsonType(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function jsonEqual(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (jsonType(left) !== jsonType(right) || typeof left !== 'object' || left === null) return false;
  const leftKeys = Object.keys(left);
  const rightRecord = right as Record<string, unknown>;
  return (
    leftKeys.length === Object.keys(rightRecord).length &&
    leftKeys.every((key) => Object.hasOwn(rightRecord, key) && jsonEqual((left as Record<string, unknown>)[key], rightRecord[key]))
  );
}

function codePoints(text: string): number {
  return [...text].length;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return jsonType(value) === 'object';
}

/** Every reason `value` fails `schema`, each prefixed with the instance location. */
export function schemaErrors(schema: Schema, value: unknown, at = ''): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: schema is false`];
  for (const keyword of Object.keys(schema)) {
    if (!ANNOTATIONS.has(keyword) && !ASSERTIONS.has(keyword)) throw new Error(`schema-check does not support keyword "${keyword}"`);
  }
  const errors: string[] = [];
  const fail = (reason: string) => errors.push(`${at}: ${reason}`);

  if (typeof schema.type === 'string' && !hasType(value, schema.type)) fail(`not of type ${schema.type}`);
  if (Array.isArray(schema.enum) && !schema.enum.some((item) => jsonEqual(item, value))) fail('not in enum');
  if ('const' in schema && !jsonEqual(schema.const, value)) fail('not the const value');

  if (typeof value === 'string') {
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) fail(`does not match ${schema.pattern}`);
    if (typeof schema.minLength === 'number' && codePoints(value) < schema.minLength) fail(`shorter than ${schema.minLength}`);
    if (typeof schema.maxLength === 'number' && codePoints(value) > schema.maxLength) fail(`longer than ${schema.maxLength}`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) fail(`below ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) fail(`above ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) fail(`more than ${schema.maxItems} items`);
    if (schema.items !== undefined)
      value.forEach((item, index) => errors.push(...schemaErrors(schema.items as Schema, item, `${at}/${index}`)));
  }
  if (isObject(value)) {
    if (typeof schema.maxProperties === 'number' && Object.keys(value).length > schema.maxProperties)
      fail(`more than ${schema.maxProperties} properties`);
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const patterns = Object.entries((schema.patternProperties ?? {}) as Record<string, Schema>);
    for (const [key, member] of Object.entries(value)) {
      const where = `${at}/${key}`;
      const named = Object.hasOwn(properties, key);
      if (named) errors.push(...schemaErrors(properties[key], member, where));
      const matching = patterns.filter(([pattern]) => new RegExp(pattern, 'u').test(key));
      for (const [, memberSchema] of matching) errors.push(...schemaErrors(memberSchema, member, where));
      if (!named && matching.length === 0 && schema.additionalProperties !== undefined) {
        errors.push(...schemaErrors(schema.additionalProperties as Schema, member, where));
      }
    }
    for (const key of (schema.required ?? []) as string[]) if (!Object.hasOwn(value, key)) fail(`missing required "${key}"`);
  }

  for (const part of (schema.allOf ?? []) as Schema[]) errors.push(...schemaErrors(part, value, at));
  if (schema.if !== undefined) {
    const branch = schemaErrors(schema.if as Schema, value, at).length === 0 ? schema.then : schema.else;
    if (branch !== undefined) errors.push(...schemaErrors(branch as Schema, value, at));
  }
  return errors;
}

export function schemaAccepts(schema: Schema, value: unknown): boolean {
  return schemaErrors(schema, value).length === 0;
}
