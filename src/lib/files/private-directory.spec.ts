import { chmodSync, lstatSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDirectory, tightenTree } from './private-directory';

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

describe('owner-only directories', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'private-directory-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates a directory 0700 and tightens an existing looser one', () => {
    ensurePrivateDirectory(join(root, 'fresh', 'nested'));
    expect(modeOf(join(root, 'fresh', 'nested'))).toBe(0o700);
    mkdirSync(join(root, 'open'), { mode: 0o777 });
    chmodSync(join(root, 'open'), 0o777);
    ensurePrivateDirectory(join(root, 'open'));
    expect(modeOf(join(root, 'open'))).toBe(0o700);
  });

  it('tightens a tree, keeps stricter modes, and leaves what a symbolic link points at alone', () => {
    const outside = join(root, 'outside');
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    const tree = join(root, 'tree');
    mkdirSync(join(tree, 'sub'), { recursive: true });
    writeFileSync(join(tree, 'sub', 'open'), 'x');
    writeFileSync(join(tree, 'read-only'), 'x');
    chmodSync(join(tree, 'sub', 'open'), 0o666);
    chmodSync(join(tree, 'read-only'), 0o444);
    chmodSync(join(tree, 'sub'), 0o777);
    symlinkSync(outside, join(tree, 'link'));

    tightenTree(tree);

    expect(modeOf(tree)).toBe(0o700);
    expect(modeOf(join(tree, 'sub'))).toBe(0o700);
    expect(modeOf(join(tree, 'sub', 'open'))).toBe(0o600);
    expect(modeOf(join(tree, 'read-only'))).toBe(0o400);
    expect(statSync(outside).mode & 0o777).toBe(0o644);
  });

  it('does nothing for a path that does not exist', () => {
    expect(() => tightenTree(join(root, 'missing'))).not.toThrow();
  });
});
