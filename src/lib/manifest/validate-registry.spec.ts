import { createHash } from 'node:crypto';
import { checkManifest, KINDS_NOT_CHECKED_NOTE, normalizeVersion, validateManifest } from './index';
import type { ExtensionFieldDeclaration, Kind, ValidateOptions, ValidationResult, Violation } from './index';

const BASE = { name: 'demo', version: '1.0.0' };

const KINDS: Kind[] = [
  {
    key: 'theme',
    label: 'Theme',
    extensionFields: [
      { key: 'colors', type: 'string[]', required: true, enum: ['dark', 'light'] },
      { key: 'stars', type: 'string', maxLength: 3 },
    ],
  },
  { key: 'tool', label: 'Tool', description: null, extensionFields: [{ key: 'colors', type: 'string[]', maxLength: 5 }] },
  { key: 'legacy', label: 'Legacy', enabled: false, extensionFields: [{ key: 'old', type: 'boolean' }] },
  { key: 'widget', label: 'Widget' },
];

const GLOBALS: ExtensionFieldDeclaration[] = [
  { key: 'stars', type: 'number' },
  { key: 'audience', type: 'string', enum: ['dev', 'ops'] },
  { key: 'beta', type: 'boolean' },
  { key: 'level', type: 'number', enum: [1, 2, 3] },
];

const REGISTRY: ValidateOptions = { kinds: KINDS, globalExtensionFields: GLOBALS };

function validate(fields: Record<string, unknown>, options: ValidateOptions = REGISTRY): ValidationResult {
  return validateManifest({ ...BASE, ...fields }, options);
}

function violationsOf(fields: Record<string, unknown>, options: ValidateOptions = REGISTRY): Violation[] {
  const result = validate(fields, options);
  return result.ok ? [] : result.violations;
}

describe('validateManifest: kinds', () => {
  it('accepts an enabled kind', () => {
    expect(validate({ kind: 'widget' }).ok).toBe(true);
  });

  it('refuses an unknown kind, listing the enabled ones and suggesting a near miss', () => {
    expect(violationsOf({ kind: 'themes' })).toEqual([
      { path: '/kind', message: 'kind: must be one of "theme", "tool", "widget"; did you mean "theme"?' },
    ]);
  });

  it('refuses a disabled kind and says it is disabled', () => {
    expect(violationsOf({ kind: 'legacy' })).toEqual([
      { path: '/kind', message: 'kind: must be one of "theme", "tool", "widget"; kind "legacy" is disabled' },
    ]);
  });

  it('refuses every kind when the registry has none', () => {
    expect(violationsOf({ kind: 'widget' }, { kinds: [] })).toEqual([
      { path: '/kind', message: 'kind: must be left out: this registry has no kinds enabled' },
    ]);
    expect(validate({}, { kinds: [] }).ok).toBe(true);
  });

  it('without a kinds list, accepts any kind matching the pattern and says kinds were not checked', () => {
    const result = validate({ kind: 'anything-goes' }, { kinds: null });
    expect(result.ok).toBe(true);
    expect(result.notes).toEqual([KINDS_NOT_CHECKED_NOTE]);
    expect(validate({ kind: 'Anything' }, { kinds: null }).ok).toBe(false);
  });

  it('gives no kinds note when kinds were checked', () => {
    expect(validate({ kind: 'widget' }).notes).toEqual([]);
  });
});

describe('validateManifest: extension fields', () => {
  it('returns declared fields as extensions, and null when there are none', () => {
    const withExtensions = validate({ kind: 'theme', colors: ['dark'], audience: 'dev', beta: false });
    expect(withExtensions.ok && withExtensions.extensions).toEqual({ colors: ['dark'], audience: 'dev', beta: false });
    expect(withExtensions.ok && withExtensions.manifest).toEqual({ ...BASE, kind: 'theme' });
    const without = validate({ description: 'plain' });
    expect(without.ok && without.extensions).toBeNull();
  });

  it('checks each declared type', () => {
    expect(violationsOf({ stars: 'five' })).toEqual([{ path: '/stars', message: 'stars: must be a finite number (got a string)' }]);
    expect(violationsOf({ beta: 'yes' })).toEqual([{ path: '/beta', message: 'beta: must be true or false (got a string)' }]);
    expect(violationsOf({ audience: 3 })).toEqual([
      { path: '/audience', message: 'audience: must be a string; quote it (it was read as the number 3)' },
    ]);
    expect(violationsOf({ kind: 'tool', colors: 'red' })).toEqual([
      { path: '/colors', message: 'colors: must be an array (got a string)' },
    ]);
  });

  it('checks enum and maxLength, per item for string[]', () => {
    expect(violationsOf({ audience: 'qa' })).toEqual([{ path: '/audience', message: 'audience: must be one of "dev", "ops"' }]);
    expect(violationsOf({ level: 4 })).toEqual([{ path: '/level', message: 'level: must be one of 1, 2, 3' }]);
    expect(validate({ level: 2 }).ok).toBe(true);
    expect(violationsOf({ kind: 'theme', colors: ['dark', 'neon'] })).toEqual([
      { path: '/colors/1', message: 'colors/1: must be one of "dark", "light"' },
    ]);
    expect(validate({ kind: 'tool', colors: ['12345'] }).ok).toBe(true);
    expect(violationsOf({ kind: 'tool', colors: ['123456'] })).toEqual([
      { path: '/colors/0', message: 'colors/0: must be at most 5 characters (got 6)' },
    ]);
  });

  it('keeps numbers within the range canonical JSON can sign', () => {
    expect(validate({ stars: Number.MAX_SAFE_INTEGER }).ok).toBe(true);
    expect(violationsOf({ stars: 2 ** 60 })).toEqual([{ path: '/stars', message: `stars: must be at most ${Number.MAX_SAFE_INTEGER}` }]);
    expect(violationsOf({ stars: Infinity })).toEqual([{ path: '/stars', message: 'stars: must be a finite number (got Infinity)' }]);
    expect(violationsOf({ stars: Number.NaN })).toEqual([{ path: '/stars', message: 'stars: must be a finite number (got NaN)' }]);
  });

  it("requires a kind's required fields only for that kind", () => {
    expect(violationsOf({ kind: 'theme' })).toEqual([{ path: '/colors', message: 'colors: is required for kind "theme"' }]);
    expect(validate({ kind: 'tool' }).ok).toBe(true);
  });

  it('requires required global fields of every manifest', () => {
    const options: ValidateOptions = { kinds: null, globalExtensionFields: [{ key: 'audience', type: 'string', required: true }] };
    expect(violationsOf({}, options)).toEqual([{ path: '/audience', message: 'audience: is required by this registry' }]);
  });

  it("lets a kind's declaration replace the global one of the same name", () => {
    expect(validate({ kind: 'theme', colors: [], stars: 'abc' }).ok).toBe(true);
    expect(violationsOf({ kind: 'theme', colors: [], stars: 5 })).toEqual([
      { path: '/stars', message: 'stars: must be a string; quote it (it was read as the number 5)' },
    ]);
    expect(validate({ kind: 'tool', stars: 5 }).ok).toBe(true);
  });

  it('refuses a field declared for another kind, naming that kind', () => {
    expect(violationsOf({ kind: 'widget', colors: ['dark'] })).toEqual([
      { path: '/colors', message: 'colors: is not a field of this kind (it is declared for kind "theme", "tool" only)' },
    ]);
    expect(violationsOf({ colors: ['dark'] })).toHaveLength(1);
  });

  it('treats fields of a disabled kind as unknown', () => {
    expect(violationsOf({ old: true })).toEqual([{ path: '/old', message: 'old: is not a known field' }]);
  });

  it('flags undeclared fields with a did-you-mean hint against spec and declared names', () => {
    expect(violationsOf({ descripton: 'x' })).toEqual([
      { path: '/descripton', message: 'descripton: is not a known field; did you mean "description"?' },
    ]);
    expect(violationsOf({ licence: 'MIT' })).toEqual([
      { path: '/licence', message: 'licence: is not a known field; did you mean "license"?' },
    ]);
    expect(violationsOf({ audiance: 'dev' })).toEqual([
      { path: '/audiance', message: 'audiance: is not a known field; did you mean "audience"?' },
    ]);
    expect(violationsOf({ Homepage: 'https://x' })[0].message).toBe('Homepage: is not a known field; did you mean "homepage"?');
    expect(violationsOf({ website: 'https://x' })).toEqual([{ path: '/website', message: 'website: is not a known field' }]);
  });

  it('without a kinds list, warns about fields outside the format instead of refusing them (the registry decides)', () => {
    const result = validate({ colors: ['dark'], descripton: 'x' }, { kinds: null, globalExtensionFields: GLOBALS });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      {
        path: '/colors',
        message: 'colors: is not a field of the manifest format; not checked: it must be an extension field the registry declares',
      },
      {
        path: '/descripton',
        message:
          'descripton: is not a field of the manifest format; not checked: it must be an extension field the registry declares; did you mean "description"?',
      },
    ]);
    expect(result.ok && result.extensions).toBeNull();
    expect(validate({ stars: 3 }, { kinds: null, globalExtensionFields: GLOBALS }).ok).toBe(true);
    expect(violationsOf({ stars: 'many' }, { kinds: null, globalExtensionFields: GLOBALS }).map((v) => v.path)).toEqual(['/stars']);
  });

  it('without a kinds list, still refuses a key no registry could declare', () => {
    expect(violationsOf({ Homepage: 'https://x' }, { kinds: null })).toEqual([
      { path: '/Homepage', message: 'Homepage: is not a known field; did you mean "homepage"?' },
    ]);
    expect(violationsOf({ 'x.y': 1 }, { kinds: null }).map((v) => v.path)).toEqual(['/x.y']);
  });

  it('with a kinds list, gives no warnings: an undeclared field is a violation', () => {
    const result = validate({ website: 'https://x' });
    expect(result.warnings).toEqual([]);
    expect(result.ok).toBe(false);
  });

  it('ignores declarations that reuse a spec field name, with a note', () => {
    const result = validate(
      { description: 'still a string' },
      { kinds: null, globalExtensionFields: [{ key: 'description', type: 'number' }] },
    );
    expect(result.ok).toBe(true);
    expect(result.notes).toContain('extension field "description" (global) is ignored: that name is reserved by the manifest format');
  });
});

describe('validateManifest: consistency', () => {
  it.each([
    ['v1.0.0', true],
    ['1.0.0', true],
    ['v1.0.1', false],
    ['vv1.0.0', false],
    ['V1.0.0', false],
  ])('with tag %s the version 1.0.0 is consistent: %s', (tag, consistent) => {
    const result = validate({}, { kinds: null, tag });
    expect(result.ok).toBe(consistent);
    if (!result.ok) expect(result.violations.map((item) => item.path)).toEqual(['/version']);
  });

  it('explains a tag mismatch', () => {
    expect(violationsOf({}, { kinds: null, tag: 'v1.0.1' })).toEqual([
      {
        path: '/version',
        message: 'version: must equal the release tag without its leading v: expected "1.0.1" (tag "v1.0.1"), got "1.0.0"',
      },
    ]);
  });

  it('does not pile a tag mismatch onto a version that is already wrong', () => {
    expect(violationsOf({ version: 'v1.0.0' }, { kinds: null, tag: 'v1.0.0' }).map((item) => item.path)).toEqual(['/version']);
  });

  it('wants the name to equal the slug', () => {
    expect(validate({}, { kinds: null, slug: 'demo' }).ok).toBe(true);
    expect(violationsOf({}, { kinds: null, slug: 'other' })).toEqual([
      { path: '/name', message: 'name: must equal the plugin slug "other", got "demo"' },
    ]);
  });
});

describe('normalizeVersion', () => {
  it('strips one leading v', () => {
    expect(normalizeVersion('v1.2.3')).toBe('1.2.3');
    expect(normalizeVersion('1.2.3')).toBe('1.2.3');
    expect(normalizeVersion('vv1.2.3')).toBe('v1.2.3');
    expect(normalizeVersion('')).toBe('');
  });
});

describe('validateManifest: canonical form', () => {
  it('returns RFC 8785 canonical JSON of the whole manifest and its SHA-256', () => {
    const result = validateManifest({ version: '1.0.0', stars: 5, name: 'demo', tags: ['b', 'a'], description: 'é\n' }, REGISTRY);
    const expected = '{"description":"é\\n","name":"demo","stars":5,"tags":["b","a"],"version":"1.0.0"}';
    expect(result.ok && result.canonicalJson).toBe(expected);
    expect(result.ok && result.sha256).toBe(createHash('sha256').update(expected, 'utf8').digest('hex'));
  });

  it('gives the same hash for the same manifest written as YAML or as JSON', () => {
    const yaml = checkManifest('version: "1.0.0"\nname: demo\ntags: [x, y]\n', '.plugin.yaml', { kinds: null });
    const json = checkManifest('{"name": "demo", "tags": ["x", "y"], "version": "1.0.0"}', '.plugin.json', { kinds: null });
    expect(yaml.ok && json.ok).toBe(true);
    expect(yaml.ok && yaml.sha256).toBe(json.ok && json.sha256);
  });

  it('turns a lone surrogate into a violation instead of throwing', () => {
    const result = checkManifest('{"name": "demo", "version": "1.0.0", "description": "\\ud800"}', '.plugin.json', { kinds: null });
    expect(!result.ok && result.violations).toEqual([
      { path: '/description', message: 'description: cannot be written as canonical JSON: string contains a lone UTF-16 surrogate' },
    ]);
  });
});
