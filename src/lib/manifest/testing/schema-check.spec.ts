import { schemaAccepts, schemaErrors } from './schema-check';

describe('schema-check (test-support JSON Schema subset)', () => {
  it('checks types, counting integers as numbers and refusing non-JSON numbers', () => {
    expect(schemaAccepts({ type: 'number' }, 3)).toBe(true);
    expect(schemaAccepts({ type: 'number' }, 3.5)).toBe(true);
    expect(schemaAccepts({ type: 'number' }, Number.NaN)).toBe(false);
    expect(schemaAccepts({ type: 'number' }, Infinity)).toBe(false);
    expect(schemaAccepts({ type: 'string' }, 3)).toBe(false);
    expect(schemaAccepts({ type: 'object' }, [])).toBe(false);
    expect(schemaAccepts({ type: 'object' }, null)).toBe(false);
    expect(schemaAccepts({ type: 'array' }, [])).toBe(true);
    expect(schemaAccepts({ type: 'boolean' }, 0)).toBe(false);
  });

  it('counts string lengths in code points', () => {
    expect(schemaAccepts({ maxLength: 2 }, '😀😀')).toBe(true);
    expect(schemaAccepts({ maxLength: 1 }, '😀😀')).toBe(false);
    expect(schemaAccepts({ minLength: 2 }, '😀')).toBe(false);
  });

  it('applies string keywords only to strings and number keywords only to numbers', () => {
    expect(schemaAccepts({ maxLength: 1, pattern: '^a$' }, 12345)).toBe(true);
    expect(schemaAccepts({ maximum: 1 }, 'long string')).toBe(true);
    expect(schemaAccepts({ pattern: '^https?://.+' }, 'ftp://x')).toBe(false);
    expect(schemaAccepts({ minimum: 0, maximum: 1 }, 2)).toBe(false);
    expect(schemaAccepts({ minimum: 0, maximum: 1 }, -1)).toBe(false);
  });

  it('checks enum and const by JSON equality', () => {
    expect(schemaAccepts({ enum: ['a', 1] }, 1)).toBe(true);
    expect(schemaAccepts({ enum: ['a', 1] }, '1')).toBe(false);
    expect(schemaAccepts({ const: { a: [1] } }, { a: [1] })).toBe(true);
    expect(schemaAccepts({ const: { a: [1] } }, { a: [2] })).toBe(false);
  });

  it('checks arrays item by item and their length', () => {
    const schema = { type: 'array', maxItems: 2, items: { type: 'string' } };
    expect(schemaAccepts(schema, ['a', 'b'])).toBe(true);
    expect(schemaErrors(schema, ['a', 2])).toEqual(['/1: not of type string']);
    expect(schemaAccepts(schema, ['a', 'b', 'c'])).toBe(false);
  });

  it('checks properties, patternProperties, additionalProperties and required', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' } },
      patternProperties: { '^x-': { type: 'number' } },
      additionalProperties: false,
      required: ['name'],
    };
    expect(schemaAccepts(schema, { name: 'a', 'x-one': 1 })).toBe(true);
    expect(schemaErrors(schema, { name: 'a', 'x-one': 'no' })).toEqual(['/x-one: not of type number']);
    expect(schemaErrors(schema, { name: 'a', other: 1 })).toEqual(['/other: schema is false']);
    expect(schemaErrors(schema, {})).toEqual([': missing required "name"']);
    expect(schemaAccepts({ properties: { a: true }, additionalProperties: { type: 'string' } }, { a: 1, b: 'x' })).toBe(true);
    expect(schemaAccepts({ properties: { a: true }, additionalProperties: { type: 'string' } }, { a: 1, b: 2 })).toBe(false);
  });

  it('applies allOf and if/then/else', () => {
    const schema = {
      allOf: [
        {
          if: { required: ['kind'], properties: { kind: { const: 'theme' } } },
          then: { required: ['colors'] },
          else: { required: ['plain'] },
        },
      ],
    };
    expect(schemaAccepts(schema, { kind: 'theme', colors: [] })).toBe(true);
    expect(schemaAccepts(schema, { kind: 'theme' })).toBe(false);
    expect(schemaAccepts(schema, { plain: 1 })).toBe(true);
    expect(schemaAccepts(schema, { kind: 'tool' })).toBe(false);
    expect(schemaAccepts({ allOf: [true, false] }, 1)).toBe(false);
  });

  it('refuses keywords it does not implement instead of ignoring them', () => {
    expect(() => schemaAccepts({ uniqueItems: true }, [1, 1])).toThrow('uniqueItems');
    expect(() => schemaAccepts({ properties: { a: { format: 'email' } } }, { a: 'x' })).toThrow('format');
  });
});
