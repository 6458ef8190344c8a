/**
 * The compiled CLI the command-line tests run (bin/registry.js loads dist/): built when a file it
 * needs is missing or older than the sources it comes from.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

function newestSourceMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSourceMtime(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

/** `built`: files under the repository; `sources`: folders under it whose sources they come from. */
export function ensureBuilt(built: readonly string[], sources: readonly string[] = ['src']): void {
  const files = built.map((file) => join(REPO_ROOT, file));
  const newest = Math.max(...sources.map((dir) => newestSourceMtime(join(REPO_ROOT, dir))));
  if (files.every((file) => existsSync(file) && statSync(file).mtimeMs >= newest)) return;
  // Type errors from other in-progress files are tolerated: tsc still emits JavaScript.
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (!files.every(existsSync)) throw new Error(`build did not emit ${built.join(', ')}:\n${build.stdout}${build.stderr}`);
}
