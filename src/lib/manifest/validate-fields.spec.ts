import fc from 'fast-check';
import { validateManifest } from './index';
import type { ValidationResult, Violation } from './index';

// Limits are written out from the spec's Manifest table and Limits section, not read from the
// rule table, so a wrong limit in the code fails here.
const BASE = { name: 'demo', version: '1.0.0' };

function check(fields: Record<string, unknown>): ValidationResult {
  return validateManifest({ ...BASE, ...fields }, { kinds: null });
}

function violationsOf(fields: Record<string, unknown>): Violation[] {
  const result = check(fields);
  return result.ok ? [] : result.violations;
}

function expectOnlyViolation(fields: Record<string, unknown>, path: string, messagePart: string): void {
  const violations = violationsOf(fields);
  expect(violations).toHaveLength(1);
  expect(violations[0].path).toBe(path);
  expect(violations[0].message).toContain(messagePart);
  expect(violations[0].message.startsWith(`${path.slice(1)}: `)).toBe(true);
}

/** A string of `length` characters that fits the field's pattern. */
const TEXT_OF_LENGTH: Record<string, (length: number) => string> = {
  name: (length) => 'a'.repeat(length),
  version: (length) => `1.0.0-${'a'.repeat(length - 6)}`,
  description: (length) => 'd'.repeat(length),
  category: (length) => 'c'.repeat(length),
  kind: (length) => 'k'.repeat(length),
  license: (length) => 'l'.repeat(length),
  icon: (length) => 'i'.repeat(length),
  readme: (length) => 'r'.repeat(length),
  min_runtime_version: (length) => `1.0.0-${'a'.repeat(length - 6)}`,
};

const STRING_MAXIMUMS: Array<[field: string, max: number]> = [
  ['name', 64],
  ['version', 40],
  ['description', 280],
  ['category', 40],
  ['kind', 40],
  ['license', 40],
  ['icon', 500],
  ['readme', 500],
  ['min_runtime_version', 40],
];

describe('validateManifest: string lengths', () => {
  it.each(STRING_MAXIMUMS)('%s: exactly %i characters passes, one more fails', (field, max) => {
    const make = TEXT_OF_LENGTH[field];
    expect(make(max)).toHaveLength(max);
    expect(check({ [field]: make(max) }).ok).toBe(true);
    expectOnlyViolation({ [field]: make(max + 1) }, `/${field}`, `must be at most ${max} characters (got ${max + 1})`);
  });

  it.each(['name', 'version', 'kind'])('%s: must not be empty', (field) => {
    expectOnlyViolation({ [field]: '' }, `/${field}`, 'must not be empty');
  });

  it.each(['description', 'category', 'license', 'icon', 'readme'])('%s: may be empty', (field) => {
    expect(check({ [field]: '' }).ok).toBe(true);
  });

  it('counts code points, not UTF-16 units', () => {
    const emoji = '😀';
    expect(check({ description: emoji.repeat(280) }).ok).toBe(true);
    expectOnlyViolation({ description: emoji.repeat(281) }, '/description', 'must be at most 280 characters (got 281)');
  });
});

describe('validateManifest: tags', () => {
  const tags = (count: number) => Array.from({ length: count }, (_, index) => `tag-${index}`);

  it('allows 16 tags, not 17', () => {
    expect(check({ tags: tags(16) }).ok).toBe(true);
    expectOnlyViolation({ tags: tags(17) }, '/tags', 'must have at most 16 items (got 17)');
  });

  it('allows 30-character tags, not 31, naming the item', () => {
    expect(check({ tags: ['a', 'b', 'c', 't'.repeat(30)] }).ok).toBe(true);
    expectOnlyViolation({ tags: ['a', 'b', 'c', 't'.repeat(31)] }, '/tags/3', 'must be at most 30 characters');
  });

  it('wants strings in an array', () => {
    expectOnlyViolation({ tags: 'one, two' }, '/tags', 'must be an array (got a string)');
    expectOnlyViolation({ tags: ['ok', 7] }, '/tags/1', 'must be a string');
  });
});

describe('validateManifest: screenshots', () => {
  const shot = (fields: Record<string, unknown> = {}) => ({ url: 'https://example.com/a.png', ...fields });

  it('allows 12 screenshots, not 13', () => {
    expect(check({ screenshots: Array.from({ length: 12 }, () => shot()) }).ok).toBe(true);
    expectOnlyViolation({ screenshots: Array.from({ length: 13 }, () => shot()) }, '/screenshots', 'must have at most 12 items (got 13)');
  });

  it('requires url, 1 to 500 characters', () => {
    expect(check({ screenshots: [shot({ url: 'u'.repeat(500) })] }).ok).toBe(true);
    expectOnlyViolation({ screenshots: [shot({ url: 'u'.repeat(501) })] }, '/screenshots/0/url', 'must be at most 500 characters');
    expectOnlyViolation({ screenshots: [shot({ url: '' })] }, '/screenshots/0/url', 'must not be empty');
    expectOnlyViolation({ screenshots: [shot(), { caption: 'no url' }] }, '/screenshots/1/url', 'is required');
  });

  it.each(['caption', 'alt'])('limits %s to 200 characters', (field) => {
    expect(check({ screenshots: [shot({ [field]: 'x'.repeat(200) })] }).ok).toBe(true);
    expectOnlyViolation(
      { screenshots: [shot(), shot({ [field]: 'x'.repeat(201) })] },
      `/screenshots/1/${field}`,
      'must be at most 200 characters',
    );
  });

  it('refuses other keys and non-objects', () => {
    expectOnlyViolation({ screenshots: [shot({ title: 'x' })] }, '/screenshots/0/title', 'is not a known field');
    expectOnlyViolation({ screenshots: [shot({ captoin: 'x' })] }, '/screenshots/0/captoin', 'did you mean "caption"?');
    expectOnlyViolation({ screenshots: ['https://example.com/a.png'] }, '/screenshots/0', 'must be an object (got a string)');
  });
});

describe('validateManifest: readmes', () => {
  it.each(['en', 'de', 'pt-BR', 'zh-TW'])('accepts the locale key %s', (locale) => {
    expect(check({ readmes: { [locale]: 'README.md' } }).ok).toBe(true);
  });

  it.each(['english', 'EN', 'pt-br', 'pt_BR', 'e', 'pt-BRA', ''])('refuses the key %j', (locale) => {
    expectOnlyViolation({ readmes: { [locale]: 'README.md' } }, `/readmes/${locale}`, 'key must be a locale code');
  });

  it('limits values to 500 characters', () => {
    expect(check({ readmes: { de: 'r'.repeat(500) } }).ok).toBe(true);
    expectOnlyViolation({ readmes: { de: 'r'.repeat(501) } }, '/readmes/de', 'must be at most 500 characters');
    expectOnlyViolation({ readmes: ['README.md'] }, '/readmes', 'must be an object (got an array)');
  });
});

describe('validateManifest: support', () => {
  it('limits email to 254 characters', () => {
    const email = (length: number) => `${'e'.repeat(length - 12)}@example.com`;
    expect(check({ support: { email: email(254) } }).ok).toBe(true);
    expectOnlyViolation({ support: { email: email(255) } }, '/support/email', 'must be at most 254 characters');
  });

  it('wants issues_url to be an http(s) URL and refuses other keys', () => {
    expect(check({ support: { issues_url: 'https://example.com/issues' } }).ok).toBe(true);
    expect(check({ support: {} }).ok).toBe(true);
    expectOnlyViolation({ support: { issues_url: 'example.com/issues' } }, '/support/issues_url', 'must be an http:// or https:// URL');
    expectOnlyViolation({ support: { phone: '555' } }, '/support/phone', 'is not a known field');
    expectOnlyViolation({ support: 'me@example.com' }, '/support', 'must be an object');
  });
});

describe('validateManifest: patterns', () => {
  it.each(['a', 'my-plugin', 'p2p', 'a-'])('name %j matches', (name) => expect(check({ name }).ok).toBe(true));
  it.each(['My-plugin', '2fa', '-a', 'a_b', 'a b', 'é'])('name %j does not', (name) => {
    expectOnlyViolation({ name }, '/name', 'pattern ^[a-z][a-z0-9-]*$');
  });

  it.each(['1.2.3', '0.0.0', '10.20.30', '1.2.3-beta.1', '1.2.3+build.5', '1.2.3-rc-1+sha.abc', '01.2.3'])(
    'version %j matches',
    (version) => {
      expect(check({ version }).ok).toBe(true);
    },
  );
  it.each(['v1.2.3', '1.2', '1', '1.2.3-', '1.2.3+', '1.2.3 ', '1.2.3_beta', 'latest', '1.2.3-béta'])('version %j does not', (version) => {
    expectOnlyViolation({ version }, '/version', 'must be a semantic version');
  });

  it.each(['theme', '3d', 'a-b', 'x-'])('kind %j matches', (kind) => expect(check({ kind }).ok).toBe(true));
  it.each(['Theme', '-a', 'a_b', 'a.b'])('kind %j does not', (kind) => {
    expectOnlyViolation({ kind }, '/kind', 'pattern ^[a-z0-9][a-z0-9-]*$');
  });

  it.each(['documentation_url', 'homepage'])('%s must be an http(s) URL', (field) => {
    expect(check({ [field]: 'https://example.com/docs' }).ok).toBe(true);
    expect(check({ [field]: 'http://x' }).ok).toBe(true);
    for (const bad of ['ftp://example.com', 'https://', 'HTTPS://example.com', 'example.com', '']) {
      expectOnlyViolation({ [field]: bad }, `/${field}`, 'must be an http:// or https:// URL');
    }
  });

  it.each(['>=1.2.0', '^2.0.0', '~1.4', '1.2.3', '>=1.0.0 <2.0.0', '1.x', '*'])('min_runtime_version %j is a semver range', (range) => {
    expect(check({ min_runtime_version: range }).ok).toBe(true);
  });
  it.each(['newest', '>=banana', '1.2.3.4'])('min_runtime_version %j is not', (range) => {
    expectOnlyViolation({ min_runtime_version: range }, '/min_runtime_version', 'must be a semver range or version');
  });
});

describe('validateManifest: required fields and types', () => {
  it('requires name and version', () => {
    const result = validateManifest({}, { kinds: null });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations).toEqual([
      { path: '/name', message: 'name: is required' },
      { path: '/version', message: 'version: is required' },
    ]);
  });

  it('says to quote a version that YAML read as a number', () => {
    expectOnlyViolation({ version: 1.1 }, '/version', 'must be a string; quote it (it was read as the number 1.1)');
  });

  it.each([
    ['name', 5, 'must be a string; quote it'],
    ['description', true, 'must be a string; quote it (it was read as the boolean true)'],
    ['description', null, 'must be a string (got null)'],
    ['license', ['MIT'], 'must be a string (got an array)'],
    ['homepage', { url: 'https://x' }, 'must be a string (got an object)'],
    ['min_runtime_version', 2, 'must be a string; quote it'],
    ['tags', { a: 1 }, 'must be an array (got an object)'],
    ['screenshots', null, 'must be an array (got null)'],
    ['readmes', 'README.md', 'must be an object (got a string)'],
    ['support', [], 'must be an object (got an array)'],
  ])('%s: %j is the wrong type', (field, value, message) => {
    expectOnlyViolation({ [field]: value }, `/${field}`, message);
  });

  it.each([null, [], 'name: x', 42])('refuses a manifest that is %j rather than an object', (value) => {
    const result = validateManifest(value, { kinds: null });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations).toEqual([{ path: '', message: expect.stringMatching(/^manifest: must be an object/) }]);
  });
});

describe('validateManifest: every violation at once', () => {
  it('reports ten different problems as exactly ten violations', () => {
    const result = validateManifest(
      {
        name: 'demo',
        version: '1.0',
        Descripton: 'typo',
        category: 'c'.repeat(41),
        kind: 'Bad_Kind',
        tags: ['ok', 'ok', 'ok', 't'.repeat(31)],
        screenshots: [{ url: 'https://example.com/1.png' }, { url: 'https://example.com/2.png' }, { caption: 'missing url' }],
        readmes: { english: 'README.en.md' },
        homepage: 'example.com',
        support: { email: 'a@b.c', phone: '555' },
        min_runtime_version: 'soon',
      },
      { kinds: null },
    );
    expect(result.ok).toBe(false);
    const violations = result.ok ? [] : result.violations;
    expect(violations).toHaveLength(10);
    expect(violations.map((item) => item.path).sort()).toEqual(
      [
        '/version',
        '/Descripton',
        '/category',
        '/kind',
        '/tags/3',
        '/screenshots/2/url',
        '/readmes/english',
        '/homepage',
        '/support/phone',
        '/min_runtime_version',
      ].sort(),
    );
    for (const item of violations) expect(item.message.startsWith(`${item.path.slice(1)}: `)).toBe(true);
  });
});

describe('validateManifest never throws', () => {
  const specKeys = ['name', 'version', 'kind', 'tags', 'screenshots', 'readmes', 'support', 'min_runtime_version', '__proto__'];

  it('for any value, including spec keys holding anything', () => {
    const manifestish = fc.dictionary(fc.oneof(fc.constantFrom(...specKeys), fc.string()), fc.anything({ withMap: true, withDate: true }));
    fc.assert(
      fc.property(fc.oneof(fc.anything(), manifestish), (value) => {
        const result = validateManifest(value, { kinds: null });
        return result.ok || result.violations.length > 0;
      }),
      { numRuns: 500 },
    );
  });
});

describe('validateManifest: bounds that protect ingest and storage', () => {
  const base = { name: 'p', version: '1.0.0' };

  it('allows 16 README locales, not 17 (each is fetched and rendered at ingest)', () => {
    const codes = 'aa ab ac ad ae af ag ah ai aj ak al am an ao ap aq'.split(' ');
    const readmes = (n: number) => Object.fromEntries(codes.slice(0, n).map((code) => [code, `README.${code}.md`]));
    expect(validateManifest({ ...base, readmes: readmes(16) }, { kinds: null }).ok).toBe(true);
    const result = validateManifest({ ...base, readmes: readmes(17) }, { kinds: null });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations).toEqual([{ path: '/readmes', message: 'readmes: must have at most 16 entries (got 17)' }]);
  });

  it('refuses NUL in any string or key, naming each field (PostgreSQL cannot store it)', () => {
    const result = validateManifest(
      { ...base, description: 'a\u0000b', tags: ['ok', 'x\u0000'], support: { 'e\u0000': 'y' } },
      { kinds: null },
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.violations.map((v) => v.path)).toEqual(['/description', '/support/e\u0000', '/tags/1']);
    expect(!result.ok && result.violations[0].message).toBe('description: must not contain NUL (U+0000) characters');
  });
});
