import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every advisory-lock key constant under src/ (`const NAME_LOCK(_KEY) = 7_244_151_002;`). */
function lockKeys(dir: string, found: { file: string; name: string; key: string }[] = []) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) lockKeys(path, found);
    else if (path.endsWith('.ts') && !path.endsWith('.spec.ts')) {
      for (const match of readFileSync(path, 'utf8').matchAll(/const (\w*_LOCK(?:_KEY)?) = ([\d_]+);/g))
        found.push({ file: path, name: match[1], key: match[2].replace(/_/g, '') });
    }
  }
  return found;
}

describe('advisory-lock keys', () => {
  it('are unique: two unrelated critical sections never share one', () => {
    const keys = lockKeys(join(__dirname, '..'));
    expect(keys.length).toBeGreaterThan(3);
    const byKey = new Map<string, string[]>();
    for (const { file, name, key } of keys) byKey.set(key, [...(byKey.get(key) ?? []), `${name} (${file})`]);
    expect([...byKey.values()].filter((users) => users.length > 1)).toEqual([]);
  });
});
