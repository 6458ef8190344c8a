import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
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
    const links = markdownLinks('```\n[no](fence.md)\n```\nsee [Key rotation and\nre-signing](operating.md#key-rotation-and-re-signing) and [one](one.md)\n');
    expect(links).toEqual([
      { line: 5, target: 'operating.md#key-rotation-and-re-signing' },
      { line: 5, target: 'one.md' },
    ]);
  });

  it('reports a missing file, a missing anchor in another page and in the same page; leaves http(s) alone', () => {
    const files: Record<string, string> = {
      '/d/a.md': '# A\n\n## Here\n\n[ok](b.md#there) [ok](#here) [ok](b.md) [web](https://example.org/#nowhere)\n[gone](missing.md) [bad](b.md#nowhere) [bad](#elsewhere)\n',
      '/d/b.md': '# B\n\n## There\n',
    };
    const problems = deadLinks('/d/a.md', (path) => files[path], (path) => path in files);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/missing\.md: no file/);
    expect(problems[1]).toMatch(/b\.md#nowhere: no heading makes #nowhere/);
    expect(problems[2]).toMatch(/#elsewhere: no heading makes #elsewhere/);
  });
});
