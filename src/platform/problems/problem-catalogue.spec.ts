import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_CATALOGUE } from './problem-catalogue';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every problem code a source file can answer with, read from the calls that make problems. */
function codesInSource(): Set<string> {
  const codes = new Set<string>();
  const literal = /'([a-z]+(?:-[a-z]+)*)'/g;
  const patterns = [
    /\b(?:badRequest|conflict|invalid|upstreamFailed)\(\s*([^,]+),/g,
    /new DomainError\(\s*'[a-z-]+',\s*([^,]+),/g,
    /problemType\(\s*baseUrl,\s*([^)]+)\)/g,
  ];
  for (const file of sourceFiles(join(__dirname, '..', '..'))) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) for (const code of match[1].matchAll(literal)) codes.add(code[1]);
    }
  }
  return codes;
}

describe('the problem catalogue', () => {
  it('describes every problem code the source can answer with', () => {
    const codes = codesInSource();
    expect(codes.size).toBeGreaterThan(15);
    expect([...codes].filter((code) => !Object.hasOwn(PROBLEM_CATALOGUE, code)).sort()).toEqual([]);
  });
});
