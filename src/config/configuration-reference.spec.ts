import { readFileSync } from 'node:fs';
import { join } from 'node:path';
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
    throw new Error(`${REFERENCE_PATH} differs from what src/config declares (first at line ${line}): run \`${REFERENCE_SCRIPT}\` and commit the result`);
  });
});
