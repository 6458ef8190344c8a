import fc from 'fast-check';
import { manifestFormat, parseManifestText } from './index';
import type { ParseResult } from './index';

function valueOf(result: ParseResult): unknown {
  if (!result.ok) throw new Error(`expected a value, got ${JSON.stringify(result.violations)}`);
  return result.value;
}

function violationsOf(result: ParseResult) {
  return result.ok ? [] : result.violations;
}

describe('manifestFormat', () => {
  it.each([
    ['.plugin.json', 'json'],
    ['plugin.json', 'json'],
    ['.plugin.yaml', 'yaml'],
    ['.plugin.yml', 'yaml'],
    ['plugin.yaml', 'yaml'],
    ['some/dir/.plugin.YAML', 'yaml'],
    ['.plugin', 'either'],
    [undefined, 'either'],
  ])('%s is %s', (name, format) => expect(manifestFormat(name)).toBe(format));
});

describe('parseManifestText: YAML', () => {
  it('reads plain YAML with the core schema: no timestamps, no yes/no booleans', () => {
    expect(valueOf(parseManifestText('name: demo\nversion: 1.10\nreleased: 2024-01-02\nbeta: yes\n', '.plugin.yaml'))).toEqual({
      name: 'demo',
      version: 1.1,
      released: '2024-01-02',
      beta: 'yes',
    });
  });

  it('makes every key a string, so 1 and "1" collide as duplicates', () => {
    expect(violationsOf(parseManifestText('1: a\n"1": b\n', '.plugin.yaml'))).toEqual([
      { path: '/1', message: '1: duplicate key at line 2, column 1 (first defined at line 1)' },
    ]);
  });

  it('reports duplicate keys with the pointer of the repeated key, however deep', () => {
    const text = 'name: demo\nsupport:\n  email: a@b.c\n  email: d@e.f\nscreenshots:\n  - url: x\n    url: y\n';
    expect(violationsOf(parseManifestText(text, '.plugin.yml')).map((item) => item.path)).toEqual(['/support/email', '/screenshots/0/url']);
  });

  it('refuses collection keys', () => {
    const violations = violationsOf(parseManifestText('? [a, b]\n: c\n', '.plugin.yaml'));
    expect(violations).toHaveLength(1);
    expect(violations[0].message).toMatch(/^manifest: is not valid YAML: .*keys must be strings at line 1/);
  });

  it('refuses tags outside the core schema, naming the field', () => {
    const text = 'a: !!binary aGk=\nb: !custom x\nc: !!set {x}\nd: !!str 12\ne: !!int "7"\n';
    expect(violationsOf(parseManifestText(text, '.plugin.yaml'))).toEqual([
      { path: '/a', message: 'a: must not use the YAML tag tag:yaml.org,2002:binary; only plain YAML values are allowed' },
      { path: '/b', message: 'b: must not use the YAML tag !custom; only plain YAML values are allowed' },
      { path: '/c', message: 'c: must not use the YAML tag tag:yaml.org,2002:set; only plain YAML values are allowed' },
    ]);
    expect(valueOf(parseManifestText('d: !!str 12\ne: !!int "7"\n', '.plugin.yaml'))).toEqual({ d: '12', e: 7 });
  });

  it('refuses directives and multiple documents', () => {
    expect(violationsOf(parseManifestText('%YAML 1.1\n---\na: 1\n', '.plugin.yaml'))).toEqual([
      { path: '', message: 'manifest: must not use YAML directives (%YAML 1.1)' },
    ]);
    expect(violationsOf(parseManifestText('a: 1\n---\nb: 2\n', '.plugin.yaml'))).toEqual([
      { path: '', message: 'manifest: must hold one YAML document, found 2' },
    ]);
  });

  it('reports syntax errors with their line instead of throwing', () => {
    const violations = violationsOf(parseManifestText('name: demo\ntags: [a, b\nversion: "1.0.0\n', '.plugin.yaml'));
    expect(violations.length).toBeGreaterThan(0);
    expect(
      violations.every((item) => item.path === '' && /^manifest: is not valid YAML: .* at line \d+, column \d+$/.test(item.message)),
    ).toBe(true);
  });

  it('reads an empty file as null (the validator then says it is not an object)', () => {
    expect(valueOf(parseManifestText('', '.plugin.yaml'))).toBeNull();
    expect(valueOf(parseManifestText('# only a comment\n', '.plugin.yaml'))).toBeNull();
  });

  it('skips a byte order mark', () => {
    expect(valueOf(parseManifestText('\uFEFFname: demo\n', '.plugin.yaml'))).toEqual({ name: 'demo' });
    expect(valueOf(parseManifestText('\uFEFF{"name": "demo"}', '.plugin.json'))).toEqual({ name: 'demo' });
  });
});

describe('parseManifestText: JSON', () => {
  it('reads strict JSON', () => {
    const text = '{"name": "demo", "n": -1.5e3, "ok": true, "none": null, "list": [1, "\\u00e9\\n\\/"], "empty": {}}';
    expect(valueOf(parseManifestText(text, '.plugin.json'))).toEqual(JSON.parse(text));
  });

  it('refuses duplicate keys, which JSON.parse would silently collapse', () => {
    expect(violationsOf(parseManifestText('{\n"name": "a",\n"name": "b"\n}', 'plugin.json'))).toEqual([
      { path: '/name', message: 'name: duplicate key (first defined at line 2)' },
    ]);
    expect(violationsOf(parseManifestText('{"support": {"email": "a", "email": "b"}}', '.plugin.json')).map((item) => item.path)).toEqual([
      '/support/email',
    ]);
  });

  it.each([
    ['{"a": 1,}', 'expected a quoted key'],
    ["{'a': 1}", 'expected a quoted key'],
    ['{a: 1}', 'expected a quoted key'],
    ['{"a": 1} // note', 'unexpected text after the JSON value'],
    ['{"a": 01}', 'expected "," or "}"'],
    ['{"a": "tab\there"}', 'control characters must be escaped inside strings'],
    ['{"a": "\\x41"}', 'bad escape sequence'],
    ['{"a": [1, 2}', 'expected "," or "]"'],
    ['{"a": tru}', 'unexpected character "t"'],
    ['', 'unexpected end of text'],
    ['{"a": "open', 'unterminated string'],
  ])('%j in a .json file is refused: %s', (text, reason) => {
    const violations = violationsOf(parseManifestText(text, '.plugin.json'));
    expect(violations).toHaveLength(1);
    expect(violations[0].path).toBe('');
    expect(violations[0].message).toContain(`manifest: is not valid JSON: ${reason} at line 1, column`);
  });

  it('gives the line and column of a syntax error', () => {
    expect(violationsOf(parseManifestText('{\n  "a": 1,\n  "b" 2\n}', '.plugin.json'))).toEqual([
      { path: '', message: 'manifest: is not valid JSON: expected ":" after the key at line 3, column 7' },
    ]);
  });
});

describe('parseManifestText: a .plugin file may hold either', () => {
  it('reads JSON as JSON, with JSON duplicate-key rules', () => {
    expect(valueOf(parseManifestText('{"name": "demo"}', '.plugin'))).toEqual({ name: 'demo' });
    expect(violationsOf(parseManifestText('{"a": 1, "a": 2}', '.plugin'))).toEqual([
      { path: '/a', message: 'a: duplicate key (first defined at line 1)' },
    ]);
  });

  it('reads YAML, including YAML flow style that only looks like JSON', () => {
    expect(valueOf(parseManifestText('name: demo\n', '.plugin'))).toEqual({ name: 'demo' });
    expect(valueOf(parseManifestText('{name: demo, tags: [a]}', '.plugin'))).toEqual({ name: 'demo', tags: ['a'] });
    expect(valueOf(parseManifestText('name: demo\n'))).toEqual({ name: 'demo' });
  });
});

describe('parseManifestText never throws', () => {
  const fragments = fc.constantFrom(
    '{',
    '}',
    '[',
    ']',
    ':',
    ',',
    '"',
    "'",
    '&a ',
    '*a',
    '!!',
    '!x ',
    '- ',
    '? ',
    '\n',
    '  ',
    '\t',
    '#',
    '%YAML',
    '---',
    'a',
    '1',
    '\\u',
    '\ud800',
    '__proto__',
  );

  it.each(['.plugin.yaml', '.plugin.json', '.plugin'])('for any text as %s', (name) => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(fragments, { maxLength: 60 }).map((parts) => parts.join('')),
        ),
        (text) => {
          const result = parseManifestText(text, name);
          return result.ok || (result.violations.length > 0 && result.violations.every((item) => typeof item.path === 'string'));
        },
      ),
      { numRuns: 300 },
    );
  });
});
