import type { ReadmeContext } from './context';
import { isAllowedDestination, rewriteReference } from './references';

const context: ReadmeContext = {
  readmeDir: 'docs/guide',
  linkUrl: (path) => `https://forge.test/link/${path}`,
  imageUrl: (path) => `https://forge.test/image/${path}`,
};

describe('rewriteReference', () => {
  it.each([
    ['#usage', 'link', '#usage'],
    ['#', 'link', null],
    ['#usage', 'image', null],
    ['', 'link', null],
    ['https://example.com/a?b=1#c', 'link', 'https://example.com/a?b=1#c'],
    ['HTTPS://EXAMPLE.COM/A', 'link', 'https://example.com/A'],
    ['mailto:me@example.com', 'link', 'mailto:me@example.com'],
    ['mailto:me@example.com', 'image', null],
    ['ftp://example.com/a', 'link', null],
    ['https://user:pw@example.com/', 'link', null],
    ['https://', 'link', null],
    ['//cdn.example/a.png', 'image', 'https://cdn.example/a.png'],
    ['a.png', 'image', 'https://forge.test/image/docs/guide/a.png'],
    ['./a.png?raw=true', 'image', 'https://forge.test/image/docs/guide/a.png'],
    ['../a.md#x', 'link', 'https://forge.test/link/docs/a.md#x'],
    ['../../../a.md', 'link', null],
    ['/a.md', 'link', 'https://forge.test/link/a.md'],
    ['/../a.md', 'link', null],
    ['a//b/./c.md', 'link', 'https://forge.test/link/docs/guide/a/b/c.md'],
    ['./', 'link', 'https://forge.test/link/docs/guide'],
    ['/', 'link', null],
    ['?x=1', 'link', null],
    ['a%2Fb.md', 'link', null],
    ['a%5Cb.md', 'link', null],
    ['a%00b.md', 'link', null],
    ['a%E0%A4%A.md', 'link', null],
    ['a b.md', 'link', null],
    ['a\\b.md', 'link', null],
    ['java%09script:alert(1)', 'link', null],
  ] as const)('%j as a %s → %j', (reference, kind, expected) => {
    expect(rewriteReference(reference, kind, context)).toBe(expected);
  });
});

describe('isAllowedDestination', () => {
  it.each([
    ['https://a.example', true],
    ['mailto:a@b.c', true],
    ['relative/path.md', true],
    ['#anchor', true],
    ['javascript:alert(1)', false],
    [' JavaScript:alert(1)', false],
    ['data:image/png;base64,AA', false],
    ['vbscript:x', false],
    ['file:///etc/passwd', false],
  ])('%j → %s', (destination, allowed) => {
    expect(isAllowedDestination(destination)).toBe(allowed);
  });
});
