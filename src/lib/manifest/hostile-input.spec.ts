import { checkManifest, MAX_MANIFEST_BYTES, MAX_NESTING_DEPTH, parseManifestText, validateManifest } from './index';
import type { ParseResult } from './index';

function violationsOf(result: ParseResult) {
  return result.ok ? [] : result.violations;
}

function expectPrototypesUntouched(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.prototype).not.toHaveProperty('polluted');
  expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  expect(typeof ({} as { constructor: unknown }).constructor).toBe('function');
}

describe('alias expansion ("billion laughs")', () => {
  const billionLaughs = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
    'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
  ].join('\n');

  it.each(['.plugin.yaml', '.plugin'])('is refused without expanding anything (%s)', (name) => {
    const violations = violationsOf(parseManifestText(billionLaughs, name));
    expect(violations).toHaveLength(8 * 9);
    expect(violations[0]).toEqual({ path: '/b/0', message: 'b/0: must not be a YAML alias (*a); write the value out' });
    expect(violations.every((item) => item.message.includes('must not be a YAML alias'))).toBe(true);
  });

  it('refuses even a single alias: a manifest has no use for them', () => {
    expect(violationsOf(parseManifestText('name: &n demo\ndescription: *n\n', '.plugin.yaml'))).toEqual([
      { path: '/description', message: 'description: must not be a YAML alias (*n); write the value out' },
    ]);
  });

  it('still accepts an anchor nobody refers to', () => {
    expect(parseManifestText('name: &n demo\n', '.plugin.yaml')).toEqual({ ok: true, value: { name: 'demo' } });
  });
});

describe('nesting depth', () => {
  const flowYaml = (depth: number) => `a: ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}\n`;
  // Compact block sequences ("- - - x") nest one level per two characters.
  const blockYaml = (depth: number) => `${'- '.repeat(depth)}leaf\n`;
  const json = (depth: number) => `{"a": ${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it.each([
    ['flow YAML', flowYaml, '.plugin.yaml'],
    ['block YAML', blockYaml, '.plugin.yaml'],
    ['JSON', json, '.plugin.json'],
  ])(`%s: ${MAX_NESTING_DEPTH} levels are read, one more is refused`, (_, make, name) => {
    expect(parseManifestText(make(MAX_NESTING_DEPTH), name).ok).toBe(true);
    const violations = violationsOf(parseManifestText(make(MAX_NESTING_DEPTH + 1), name));
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toContain(`must not nest deeper than ${MAX_NESTING_DEPTH} levels`);
  });

  it.each([
    ['flow YAML', flowYaml(1000), '.plugin.yaml'],
    ['block YAML', blockYaml(1000), '.plugin.yaml'],
    ['JSON', json(1000), '.plugin.json'],
    ['JSON in a .plugin file', json(1000), '.plugin'],
    ['block YAML as deep as 64 KiB allows', blockYaml(32000), '.plugin.yaml'],
    ['flow YAML as deep as 64 KiB allows', `${'['.repeat(32000)}${']'.repeat(32000)}`, '.plugin.yaml'],
    ['JSON as deep as 64 KiB allows', `${'['.repeat(32000)}${']'.repeat(32000)}`, '.plugin.json'],
  ])('%s, 1,000 levels or more deep, is refused', (_, text, name) => {
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_MANIFEST_BYTES);
    const violations = violationsOf(parseManifestText(text, name));
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toContain(`must not nest deeper than ${MAX_NESTING_DEPTH} levels`);
  });
});

describe('prototype pollution', () => {
  afterEach(expectPrototypesUntouched);

  it.each([
    ['YAML __proto__', '__proto__:\n  polluted: yes\n', '.plugin.yaml', '/__proto__'],
    ['YAML quoted __proto__', '"__proto__": {polluted: yes}\n', '.plugin.yaml', '/__proto__'],
    ['YAML constructor.prototype', 'constructor:\n  prototype:\n    polluted: yes\n', '.plugin.yaml', '/constructor'],
    ['nested YAML __proto__', 'support:\n  __proto__: {polluted: yes}\n', '.plugin.yaml', '/support/__proto__'],
    ['JSON __proto__', '{"__proto__": {"polluted": true}}', '.plugin.json', '/__proto__'],
    ['JSON escaped __proto__', '{"\\u005f_proto__": {"polluted": true}}', '.plugin.json', '/__proto__'],
    ['JSON prototype in a list', '{"screenshots": [{"prototype": {"polluted": 1}}]}', '.plugin.json', '/screenshots/0/prototype'],
  ])('%s is a violation', (_, text, name, path) => {
    expect(violationsOf(parseManifestText(text, name))).toEqual([{ path, message: `${path.slice(1)}: is a reserved key and not allowed` }]);
  });

  it('a value carrying an own __proto__ key (from JSON.parse) is refused by the validator too', () => {
    const value: unknown = JSON.parse('{"name": "demo", "version": "1.0.0", "__proto__": {"polluted": true}}');
    const result = validateManifest(value, { kinds: null });
    expect(!result.ok && result.violations.map((item) => item.path)).toEqual(['/__proto__']);
  });
});

describe('size limit', () => {
  /** A YAML manifest of exactly `bytes` UTF-8 bytes, padded with two-byte characters. */
  function manifestOfBytes(bytes: number): string {
    const head = 'name: demo\nversion: "1.0.0"\ncategory: "';
    const tail = '"\n';
    const room = bytes - Buffer.byteLength(head + tail);
    return head + 'é'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2) + tail;
  }

  it('reads exactly 64 KiB', () => {
    const text = manifestOfBytes(MAX_MANIFEST_BYTES);
    expect(Buffer.byteLength(text)).toBe(65536);
    expect(parseManifestText(text, '.plugin.yaml').ok).toBe(true);
  });

  it('refuses 64 KiB + 1 byte before parsing', () => {
    const text = manifestOfBytes(MAX_MANIFEST_BYTES + 1);
    expect(violationsOf(parseManifestText(text, '.plugin.yaml'))).toEqual([
      { path: '', message: 'manifest: must be at most 65536 bytes of UTF-8 (got 65537)' },
    ]);
  });

  it('counts UTF-8 bytes, not characters', () => {
    const text = `name: "${'é'.repeat(40000)}"\n`;
    expect(text.length).toBeLessThan(MAX_MANIFEST_BYTES);
    expect(violationsOf(parseManifestText(text, '.plugin.yaml'))[0].message).toContain('must be at most 65536 bytes');
  });

  it('refuses oversized text even when it is otherwise unreadable garbage', () => {
    const result = checkManifest('['.repeat(MAX_MANIFEST_BYTES + 1), '.plugin', { kinds: null });
    expect(!result.ok && result.violations).toEqual([{ path: '', message: 'manifest: must be at most 65536 bytes of UTF-8 (got 65537)' }]);
  });
});
