import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'dotenv';
import { CONFIG_AREAS, CONFIG_VARIABLES, loadConfig } from './config';
import { configurationReference, REFERENCE_PATH, REFERENCE_SCRIPT } from './configuration-reference';

const ROOT = join(__dirname, '..', '..');

describe(REFERENCE_PATH, () => {
  it('is what the variable declarations in src/config make', () => {
    const generated = configurationReference();
    let committed = '';
    try {
      committed = readFileSync(join(ROOT, REFERENCE_PATH), 'utf8');
    } catch {
      // missing: reported below like any other difference
    }
    if (committed === generated) return;
    const [ours, theirs] = [committed.split('\n'), generated.split('\n')];
    const line = ours.findIndex((text, i) => text !== theirs[i]) + 1 || ours.length + 1;
    throw new Error(
      `${REFERENCE_PATH} differs from what src/config declares (first at line ${line}): run \`${REFERENCE_SCRIPT}\` and commit the result`,
    );
  });
});

describe('.env.example', () => {
  const text = readFileSync(join(ROOT, '.env.example'), 'utf8');
  // Commented-out lines count too: `# NAME=value` shows a variable that is best left unset.
  const listed = [...text.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);

  it('lists every variable the configuration reads, once, and no other', () => {
    expect([...listed].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  it('gives a variable with a declared default that default, or leaves it empty', () => {
    const given = parse(text);
    const differing = CONFIG_AREAS.flatMap((area) => area.variables)
      .filter((variable) => 'default' in variable && given[variable.name] && given[variable.name] !== variable.default)
      .map((variable) => variable.name);
    expect(differing).toEqual([]);
  });

  it('loads as it stands', () => {
    expect(() => loadConfig(parse(text))).not.toThrow();
  });
});
