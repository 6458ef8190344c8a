import fc from 'fast-check';
import type { ExtensionFieldDeclaration, Kind } from '../types';

/**
 * Generators of manifest-like values for property tests. Each value is built valid and then, now
 * and then, broken in one way: just past a length or item limit, one character a pattern refuses,
 * a wrong type, an unknown key. So accepted and refused manifests are both common, and refused ones
 * sit right at the rules' edges.
 */

/** A registry exercising every extension feature: overrides, kind-only fields, a disabled kind. */
export const TEST_KINDS: Kind[] = [
  {
    key: 'theme',
    label: 'Theme',
    extensionFields: [
      { key: 'colors', type: 'string[]', required: true, enum: ['dark', 'light'] },
      { key: 'stars', type: 'string', maxLength: 3 },
    ],
  },
  { key: 'tool', label: 'Tool', extensionFields: [{ key: 'colors', type: 'string[]', maxLength: 5 }] },
  { key: 'legacy', label: 'Legacy', enabled: false, extensionFields: [{ key: 'old', type: 'boolean' }] },
  { key: 'widget', label: 'Widget' },
];

export const TEST_GLOBAL_FIELDS: ExtensionFieldDeclaration[] = [
  { key: 'stars', type: 'number' },
  { key: 'audience', type: 'string', enum: ['dev', 'ops'], required: false },
  { key: 'beta', type: 'boolean' },
];

const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}), fc.double({ noNaN: true }));

/** Usually a valid value, sometimes a broken one or one of the wrong type. */
function field(valid: fc.Arbitrary<unknown>, broken?: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const invalid = broken ? fc.oneof(broken, wrongType) : wrongType;
  return fc.oneof({ arbitrary: valid, weight: 10 }, { arbitrary: invalid, weight: 1 });
}

const FREE_TEXT = ['a', 'Z', ' ', 'é', '😀', '-', '.'];

function textOfLength(length: number, alphabet: readonly string[]): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...alphabet), { minLength: length, maxLength: length }).map((chars) => chars.join(''));
}

/** Text of at most `max` code points (astral characters included), with the edges well represented. */
function textWithin(max: number, alphabet: readonly string[] = FREE_TEXT): fc.Arbitrary<string> {
  const length = fc.oneof({ arbitrary: fc.integer({ min: 0, max }), weight: 3 }, { arbitrary: fc.constantFrom(0, 1, max), weight: 1 });
  return length.chain((chosen) => textOfLength(chosen, alphabet));
}

/** Text one code point too long. */
function textOver(max: number, alphabet: readonly string[] = FREE_TEXT): fc.Arbitrary<string> {
  return textOfLength(max + 1, alphabet);
}

function limitedText(max: number): fc.Arbitrary<unknown> {
  return field(textWithin(max), textOver(max));
}

/** Strings a pattern (first character, then the rest) accepts, from 1 to `max` characters. */
function patterned(first: readonly string[], rest: readonly string[], max: number): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...first), textWithin(max - 1, rest)).map(([head, tail]) => head + tail);
}

/** The same string with one character replaced by one the pattern refuses. */
function corrupt(valid: fc.Arbitrary<string>, wrong: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(valid, fc.nat(), fc.constantFrom(...wrong)).map(([text, index, char]) => {
    const chars = [...text];
    chars[index % chars.length] = char;
    return chars.join('');
  });
}

/** Arrays of up to `max` valid items; broken ones hold one item too many or one bad item. */
function list(max: number, item: fc.Arbitrary<unknown>, badItem: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const valid = fc.array(item, { maxLength: max });
  const tooMany = fc.array(item, { minLength: max + 1, maxLength: max + 1 });
  const oneBad = fc.tuple(fc.array(item, { maxLength: max - 1 }), badItem, fc.nat()).map(([items, bad, index]) => {
    const copy = [...items];
    copy.splice(index % (copy.length + 1), 0, bad);
    return copy;
  });
  return field(valid, fc.oneof(tooMany, oneBad));
}

/** A closed object, sometimes with one key too many. */
function closed(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc.oneof({ arbitrary: valid, weight: 8 }, { arbitrary: valid.map((object) => ({ ...object, stray: true })), weight: 1 });
}

const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];
const DIGITS = [...'0123456789'];
const SLUG_REST = [...LOWER, ...DIGITS, '-'];

const validName = patterned(LOWER, SLUG_REST, 64);
const name = field(
  validName,
  fc.oneof(corrupt(validName, ['A', '_', '.', ' ', 'é']), fc.constant(''), textOver(64, LOWER), fc.constantFrom('1a', '-a')),
);

const validKind = patterned([...LOWER, ...DIGITS], SLUG_REST, 40);
const kind = field(
  fc.oneof(fc.constantFrom('theme', 'tool', 'widget'), validKind),
  fc.oneof(fc.constantFrom('legacy', 'themes', '', '-x'), corrupt(validKind, ['A', '_', '.']), textOver(40, LOWER)),
);

const validVersion = fc.oneof(
  fc.tuple(fc.nat(99), fc.nat(99), fc.nat(99)).map((parts) => parts.join('.')),
  fc
    .tuple(fc.nat(9), fc.nat(9), fc.nat(9), patterned(['a', '1'], ['a', '1', '.', '-'], 20), fc.constantFrom('', '+build.1', '+b-2'))
    .map(([major, minor, patch, pre, build]) => `${major}.${minor}.${patch}-${pre}${build}`),
);
const version = field(
  validVersion,
  fc.oneof(fc.constantFrom('v1.2.3', '1.2', '', '1.2.3 ', 'latest', '1.2.3-', '1.2.3+'), fc.constant(`1.0.0-${'a'.repeat(35)}`)),
);

const validUrl = fc
  .tuple(fc.constantFrom('https://', 'http://'), patterned(['a', 'é'], ['a', '.', '/', 'é'], 30))
  .map(([scheme, rest]) => scheme + rest);
const url = field(validUrl, fc.constantFrom('ftp://example.com', 'https://', 'https:/x', '', 'HTTP://x', 'example.com'));

/** Valid semver ranges only: semver validity is beyond the schema, so the schema comparison keeps it out. */
export const goodRange = fc.constantFrom('>=1.0.0', '^2.1.0', '1.2.3', '~1.2', '*', '1.0.0 - 2.0.0');
const tooLongRange = fc.constant(`>=1.0.0 ${'<2.0.0 '.repeat(6)}`);
const badRange = fc.constantFrom('soon', '>=banana', '1.2.3.4');

const screenshot = fc.record(
  { url: fc.tuple(fc.constant('u'), textWithin(499)).map(([head, tail]) => head + tail), caption: textWithin(200), alt: textWithin(200) },
  { requiredKeys: ['url'] },
);
const badScreenshot = fc.oneof(
  fc.record({ url: fc.constant('u'), title: fc.constant('stray key') }),
  fc.record({ caption: textWithin(200) }),
  fc.record({ url: fc.oneof(fc.constant(''), textOver(500)) }),
  fc.record({ url: fc.constant('u'), caption: textOver(200) }),
  fc.record({ url: fc.constant('u'), alt: wrongType }),
  fc.constant('https://example.com/a.png'),
);

const readmes = field(
  fc.dictionary(fc.constantFrom('en', 'de', 'pt-BR'), textWithin(500), { maxKeys: 3, noNullPrototype: true }),
  fc.oneof(
    fc.dictionary(fc.constantFrom('EN', 'english', 'pt-br'), textWithin(10), { minKeys: 1, maxKeys: 1, noNullPrototype: true }),
    fc.record({ de: textOver(500) }),
  ),
);

const support = field(
  closed(fc.record({ email: textWithin(254), issues_url: validUrl }, { requiredKeys: [] })),
  fc.oneof(fc.record({ email: textOver(254) }), fc.record({ issues_url: fc.constantFrom('example.com', 'ftp://x') })),
);

function specFields(range: fc.Arbitrary<string>): Record<string, fc.Arbitrary<unknown>> {
  return {
    name,
    version,
    description: limitedText(280),
    category: limitedText(40),
    kind,
    tags: list(16, textWithin(30), fc.oneof(textOver(30), wrongType)),
    license: limitedText(40),
    icon: limitedText(500),
    screenshots: list(12, screenshot, badScreenshot),
    readme: limitedText(500),
    readmes,
    documentation_url: url,
    homepage: url,
    support,
    min_runtime_version: field(range, tooLongRange),
  };
}

const EXTENSION_FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  stars: fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.constant(2 ** 60), textWithin(4, ['a', '1']), fc.double({ noNaN: true })),
  colors: field(
    fc.array(fc.constantFrom('dark', 'light'), { maxLength: 3 }),
    fc.array(fc.constantFrom('dark', 'neon', 'ultraviolet'), { minLength: 1, maxLength: 3 }),
  ),
  audience: field(fc.constantFrom('dev', 'ops'), fc.constant('qa')),
  beta: field(fc.boolean(), fc.constant('yes')),
  old: fc.boolean(),
  descripton: fc.constant('typo'),
};

function someOf(fields: Record<string, fc.Arbitrary<unknown>>, maxKeys: number): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(fc.record(fields), fc.subarray(Object.keys(fields), { maxLength: maxKeys }))
    .map(([all, keys]) => Object.fromEntries(keys.map((key) => [key, all[key]])));
}

/**
 * Manifest-like objects. With `semver: 'valid-only'`, min_runtime_version is never a string that
 * fails only the semver check (a rule no JSON Schema keyword expresses).
 */
export function manifestValue(semver: 'any' | 'valid-only'): fc.Arbitrary<Record<string, unknown>> {
  const range = semver === 'any' ? fc.oneof(goodRange, badRange) : goodRange;
  const { name: nameField, version: versionField, ...optional } = specFields(range);
  const rarelyMissing = (value: fc.Arbitrary<unknown>) => fc.option(value, { freq: 20, nil: undefined });
  return fc
    .tuple(
      rarelyMissing(nameField),
      rarelyMissing(versionField),
      someOf(optional, 6),
      fc.option(someOf(EXTENSION_FIELDS, 2), { freq: 2, nil: undefined }),
    )
    .map(([manifestName, manifestVersion, rest, extensions]) => {
      const manifest: Record<string, unknown> = { ...rest, ...extensions };
      if (manifestName !== undefined) manifest.name = manifestName;
      if (manifestVersion !== undefined) manifest.version = manifestVersion;
      return manifest;
    });
}
