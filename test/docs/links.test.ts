import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { deadLinks, githubSlug, headingAnchors, markdownLinks } from './markdown-links';

/**
 * The documentation's links hold: every relative link in README.md and docs/*.md names a file
 * that exists, and every anchor (`page.md#anchor`, `#anchor`) a heading of that page makes, by
 * GitHub's rules. http(s) links are not followed (no network in tests).
 */
const ROOT = resolve(__dirname, '..', '..');
const PAGES = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => join(ROOT, 'docs', name)),
];

describe('documentation links', () => {
  it('finds the README and the docs pages', () => {
    expect(PAGES.length).toBeGreaterThan(10);
  });

  it.each(PAGES.map((page) => [page.slice(ROOT.length + 1), page]))('%s has no dead relative link or anchor', (_name, page) => {
    expect(deadLinks(page)).toEqual([]);
  });
});

describe('the link check itself', () => {
  it("makes GitHub's anchors: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens", () => {
    expect(githubSlug('Trusted publishing (OIDC)')).toBe('trusted-publishing-oidc');
    expect(githubSlug('The `registry` command')).toBe('the-registry-command');
    expect(githubSlug('By hand: curl, jq, openssl and sha256sum')).toBe('by-hand-curl-jq-openssl-and-sha256sum');
    expect(githubSlug('Your first plugin, step by step')).toBe('your-first-plugin-step-by-step');
    expect(githubSlug('Key rotation and re-signing')).toBe('key-rotation-and-re-signing');
    expect(githubSlug('`ratelimit.*` and `ext_fields`')).toBe('ratelimit-and-ext_fields');
    expect(githubSlug('A  b')).toBe('a--b');
  });

  it('numbers repeated headings -1, -2 and ignores headings inside code blocks', () => {
    const anchors = headingAnchors('# Setup\n\n## Setup\n\n```sh\n# Setup\n```\n\n### Setup\n');
    expect([...anchors]).toEqual(['setup', 'setup-1', 'setup-2']);
  });

  it('reads inline links, images and reference definitions, not links in code', () => {
    const links = markdownLinks('[a](x.md#y) and ![i](img.png "title")\n`[no](code.md)`\n```\n[no](fence.md)\n```\n[ref]: other.md\n');
    expect(links).toEqual([
      { line: 1, target: 'x.md#y' },
      { line: 1, target: 'img.png' },
      { line: 6, target: 'other.md' },
    ]);
  });

  it('reads a link whose text wraps onto the next line, across a code block before it', () => {
    const links = markdownLinks(
      '```\n[no](fence.md)\n```\nsee [Key rotation and\nre-signing](operating.md#key-rotation-and-re-signing) and [one](one.md)\n',
    );
    expect(links).toEqual([
      { line: 5, target: 'operating.md#key-rotation-and-re-signing' },
      { line: 5, target: 'one.md' },
    ]);
  });

  it('reports a missing file, a missing anchor in another page and in the same page; leaves http(s) alone', () => {
    const files: Record<string, string> = {
      '/d/a.md':
        '# A\n\n## Here\n\n[ok](b.md#there) [ok](#here) [ok](b.md) [web](https://example.org/#nowhere)\n[gone](missing.md) [bad](b.md#nowhere) [bad](#elsewhere)\n',
      '/d/b.md': '# B\n\n## There\n',
    };
    const problems = deadLinks(
      '/d/a.md',
      (path) => files[path],
      (path) => path in files,
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/missing\.md: no file/);
    expect(problems[1]).toMatch(/b\.md#nowhere: no heading makes #nowhere/);
    expect(problems[2]).toMatch(/#elsewhere: no heading makes #elsewhere/);
  });
});

/**
 * No reference leads outside the repository: settled decisions are sections of docs/decisions.md
 * (linked by anchor), features are described on the docs pages, and neither the numbered list the
 * decisions once lived in nor the project's private tracker is named by number anywhere a reader
 * looks. The words are assembled from pieces so that this file does not match its own pattern.
 */
const DECISIONS_WORD = ['DECI', 'SIONS'].join('');
const ISSUE_WORD = ['[Ii]', 'ssues?'].join('');
const OUTSIDE_REFERENCE = new RegExp(`\\b${DECISIONS_WORD}\\b|\\b${ISSUE_WORD} #?\\d+`);
const SCANNED = ['src', 'test', 'bench', 'scripts', 'docs', 'README.md'];
const THE_RECORD = 'docs/decisions.md';

/** The tracked files under SCANNED (git ls-files), or every file there when git cannot say. */
function scannedFiles(): string[] {
  try {
    const listed = execFileSync('git', ['ls-files', '-z', '--', ...SCANNED], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const files = listed.split('\0').filter((file) => file !== '');
    if (files.length > 0) return files;
  } catch {
    // Not a git checkout (an exported tree): walk the folders instead.
  }
  const walk = (path: string): string[] => {
    if (!statSync(path).isDirectory()) return [relative(ROOT, path).split(sep).join('/')];
    return readdirSync(path)
      .filter((name) => name !== 'node_modules' && name !== 'dist' && !name.startsWith('.'))
      .sort()
      .flatMap((name) => walk(join(path, name)));
  };
  return SCANNED.flatMap((entry) => walk(join(ROOT, entry)));
}

/** Every `file:line: text` whose line names a decision by number or a tracker issue; text files only. */
function outsideReferences(files: readonly string[], read: (file: string) => Buffer): string[] {
  const found: string[] = [];
  for (const file of files) {
    if (file === THE_RECORD) continue;
    const bytes = read(file);
    if (bytes.includes(0)) continue;
    bytes
      .toString('utf8')
      .split('\n')
      .forEach((line, index) => {
        if (OUTSIDE_REFERENCE.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe('references stay inside the repository', () => {
  it('no tracked text file under src, test, bench, scripts or docs, nor the README, points at a document outside it', () => {
    const files = scannedFiles();
    expect(files).toContain('README.md');
    expect(files.length).toBeGreaterThan(100);
    // A tracked file deleted in the working tree (or a symlink to a folder) has nothing to read.
    const read = (file: string) =>
      existsSync(join(ROOT, file)) && statSync(join(ROOT, file)).isFile() ? readFileSync(join(ROOT, file)) : Buffer.alloc(0);
    expect(outsideReferences(files, read)).toEqual([]);
  });

  it('catches a numbered decision and a tracker issue in any spelling, and leaves the record and plain words alone', () => {
    const files: Record<string, string> = {
      'src/a.ts': `// (${DECISIONS_WORD} 5) and ${DECISIONS_WORD}.md §3\n// an issue with no number, version 2, HTTP 404\n`,
      'docs/b.md': `See ${'i'}ssue 23's targets.\n\n${'I'}ssue 26 review 1-4, ${'i'}ssues #12 and 13.\n`,
      'docs/decisions.md': `${DECISIONS_WORD} 1 is described here, as is ${'i'}ssue 2.\n`,
      'docs/c.png': `\0${DECISIONS_WORD} 9`,
    };
    const problems = outsideReferences(Object.keys(files), (file) => Buffer.from(files[file]));
    expect(problems.map((problem) => problem.split(': ')[0])).toEqual(['src/a.ts:1', 'docs/b.md:1', 'docs/b.md:3']);
  });
});
