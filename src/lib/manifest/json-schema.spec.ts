import fc from 'fast-check';
import { manifestJsonSchema, validateManifest } from './index';
import type { ValidateOptions } from './index';
import { manifestValue, TEST_GLOBAL_FIELDS, TEST_KINDS } from './testing/manifest-arbitraries';
import { schemaAccepts, schemaErrors } from './testing/schema-check';

type SchemaObject = { [keyword: string]: unknown };

function propertiesOf(schema: SchemaObject): Record<string, unknown> {
  return schema.properties as Record<string, unknown>;
}

describe('manifestJsonSchema: shape', () => {
  it('is a draft 2020-12 schema of a closed object requiring name and version', () => {
    const schema = manifestJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema).not.toHaveProperty('$id');
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name', 'version']);
    expect(Object.keys(propertiesOf(schema)).sort()).toEqual(
      [
        'name',
        'version',
        'description',
        'category',
        'kind',
        'tags',
        'license',
        'icon',
        'screenshots',
        'readme',
        'readmes',
        'documentation_url',
        'homepage',
        'support',
        'min_runtime_version',
      ].sort(),
    );
  });

  it('takes its $id from the caller', () => {
    expect(manifestJsonSchema({ id: 'https://registry.example/schemas/manifest.json' }).$id).toBe(
      'https://registry.example/schemas/manifest.json',
    );
  });

  it('writes the spec limits as schema keywords', () => {
    const properties = propertiesOf(manifestJsonSchema()) as Record<string, SchemaObject>;
    expect(properties.name).toMatchObject({ type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9-]*$' });
    expect(properties.tags).toEqual({
      description: expect.any(String),
      type: 'array',
      maxItems: 16,
      items: { type: 'string', maxLength: 30 },
    });
    expect(properties.screenshots).toMatchObject({
      maxItems: 12,
      items: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { minLength: 1, maxLength: 500 } } },
    });
    expect(properties.readmes).toMatchObject({
      type: 'object',
      additionalProperties: false,
      patternProperties: { '^[a-z]{2}(-[A-Z]{2})?$': { maxLength: 500 } },
    });
    expect(properties.support).toMatchObject({
      additionalProperties: false,
      properties: { email: { maxLength: 254 }, issues_url: { pattern: '^https?://.+' } },
    });
  });

  it('lists only enabled kinds, and leaves kind open when kinds are not known', () => {
    const withKinds = propertiesOf(manifestJsonSchema({ kinds: TEST_KINDS })) as Record<string, SchemaObject>;
    expect(withKinds.kind.enum).toEqual(['theme', 'tool', 'widget']);
    const withoutKinds = propertiesOf(manifestJsonSchema({ kinds: null })) as Record<string, SchemaObject>;
    expect(withoutKinds.kind).not.toHaveProperty('enum');
  });

  it('adds declared extension fields as properties', () => {
    const schema = manifestJsonSchema({ kinds: TEST_KINDS, globalExtensionFields: TEST_GLOBAL_FIELDS });
    const properties = propertiesOf(schema);
    expect(properties.audience).toEqual({ type: 'string', enum: ['dev', 'ops'] });
    expect(properties.beta).toEqual({ type: 'boolean' });
    // Declared differently per kind: typed in that kind's branch.
    expect(properties.stars).toBe(true);
    expect(properties.colors).toBe(true);
    expect(properties).not.toHaveProperty('old');
    expect(Array.isArray(schema.allOf)).toBe(true);
  });

  it('agrees with the validator on hand-picked manifests', () => {
    const options: ValidateOptions = { kinds: TEST_KINDS, globalExtensionFields: TEST_GLOBAL_FIELDS };
    const schema = manifestJsonSchema(options);
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ name: 'demo', version: '1.0.0' }, true],
      [{ name: 'demo', version: '1.0.0', kind: 'theme', colors: ['dark'], stars: 'abc' }, true],
      [{ name: 'demo', version: '1.0.0', kind: 'theme', stars: 'abc' }, false],
      [{ name: 'demo', version: '1.0.0', kind: 'tool', stars: 4 }, true],
      [{ name: 'demo', version: '1.0.0', kind: 'tool', stars: 'abc' }, false],
      [{ name: 'demo', version: '1.0.0', kind: 'widget', colors: [] }, false],
      [{ name: 'demo', version: '1.0.0', kind: 'legacy' }, false],
      [{ name: 'demo', version: '1.0.0', descripton: 'typo' }, false],
      [{ name: 'demo', version: 1.1 }, false],
      [{ version: '1.0.0' }, false],
    ];
    for (const [manifest, valid] of cases) {
      expect({ manifest, schema: schemaErrors(schema, manifest) }).toEqual({
        manifest,
        schema: valid ? [] : expect.arrayContaining([expect.any(String)]),
      });
      expect({ manifest, validator: validateManifest(manifest, options).ok }).toEqual({ manifest, validator: valid });
    }
  });
});

describe('manifestJsonSchema agrees with validateManifest (property)', () => {
  const registries: Array<[string, ValidateOptions]> = [
    ['kinds unknown', { kinds: null }],
    ['kinds unknown, global fields', { kinds: null, globalExtensionFields: TEST_GLOBAL_FIELDS }],
    ['kinds and fields', { kinds: TEST_KINDS, globalExtensionFields: TEST_GLOBAL_FIELDS }],
  ];

  it('generates both accepted and refused manifests, so the properties below are not vacuous', () => {
    for (const [, options] of registries) {
      const verdicts = fc
        .sample(manifestValue('valid-only'), { numRuns: 600, seed: 42 })
        .map((value) => validateManifest(value, options).ok);
      const accepted = verdicts.filter(Boolean).length;
      expect(accepted).toBeGreaterThan(60);
      expect(verdicts.length - accepted).toBeGreaterThan(60);
    }
  });

  it.each(registries)('%s: whatever the validator accepts, the schema accepts', (_, options) => {
    const schema = manifestJsonSchema(options);
    fc.assert(
      fc.property(manifestValue('any'), (value) => {
        if (!validateManifest(value, options).ok) return true;
        expect(schemaErrors(schema, value)).toEqual([]);
        return true;
      }),
      { numRuns: 1500 },
    );
  });

  it.each(registries)('%s: with only schema-level rules in play, the schema and the validator give the same verdict', (_, options) => {
    const schema = manifestJsonSchema(options);
    fc.assert(
      fc.property(manifestValue('valid-only'), (value) => {
        const result = validateManifest(value, options);
        const verdicts = { validator: result.ok, schema: schemaAccepts(schema, value) };
        expect({ verdicts, violations: result.ok ? [] : result.violations, schemaErrors: schemaErrors(schema, value) }).toMatchObject({
          verdicts: { validator: verdicts.schema, schema: result.ok },
        });
        return true;
      }),
      { numRuns: 1500 },
    );
  });
});
