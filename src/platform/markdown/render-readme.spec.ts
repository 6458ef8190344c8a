import {
  forgeReadmeContext,
  NO_REPOSITORY_CONTEXT,
  README_MAX_LENGTH,
  renderReadme,
  runRenderJob,
  TRUNCATION_NOTICE,
  urlReadmeContext,
} from './index';
import type { ReadmeContext } from './index';
import { inertnessProblems } from './testing/inert-html';

const REL = 'rel="nofollow noopener noreferrer ugc"';

/** Stands in for a forge: links and images get told apart so the tests can see which was asked. */
function fakeContext(readmeDir = ''): ReadmeContext {
  return {
    readmeDir,
    linkUrl: (path) => `https://forge.test/link/${path}`,
    imageUrl: (path) => `https://forge.test/image/${path}`,
  };
}

function render(markdown: string, context: ReadmeContext = fakeContext()): string {
  const html = renderReadme(markdown, context);
  expect(inertnessProblems(html)).toEqual([]);
  return html;
}

describe('rendering basics', () => {
  it('renders headings, emphasis, strikethrough, rules, quotes and lists', () => {
    const html = render('# One\n\n## Two\n\n*em* **strong** ~~gone~~\n\n---\n\n> quoted\n\n- a\n- b\n\n3. three\n4. four\n');
    expect(html).toContain('<h1>One</h1>');
    expect(html).toContain('<h2>Two</h2>');
    expect(html).toContain('<em>em</em> <strong>strong</strong> <s>gone</s>');
    expect(html).toContain('<hr />');
    expect(html).toContain('<blockquote>\n<p>quoted</p>\n</blockquote>');
    expect(html).toContain('<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
    expect(html).toContain('<ol start="3">');
  });

  it('renders code fences with a plain language class, and inline code', () => {
    expect(render('```ts\nconst a = 1 < 2;\n```\n')).toBe('<pre><code class="language-ts">const a = 1 &lt; 2;\n</code></pre>\n');
    expect(render('```c++ extra words\nx\n```\n')).toContain('<code class="language-c++">');
    expect(render('```js" onclick="x\nx\n```\n')).toBe('<pre><code>x\n</code></pre>\n');
    expect(render('`<b>`')).toBe('<p><code>&lt;b&gt;</code></p>\n');
  });

  it('renders tables with alignment as an align attribute, never a style', () => {
    const html = render('| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n');
    expect(html).toContain('<th align="left">a</th>');
    expect(html).toContain('<th align="center">b</th>');
    expect(html).toContain('<td align="right">3</td>');
    expect(html).not.toContain('style');
  });

  it('shows raw HTML as text', () => {
    expect(render('<b>bold</b> <div align="center">x</div>')).toBe(
      '<p>&lt;b&gt;bold&lt;/b&gt; &lt;div align="center"&gt;x&lt;/div&gt;</p>\n',
    );
  });

  it('marks every link nofollow and never sets a target', () => {
    const html = render('[site](https://example.com/page "Title")');
    expect(html).toBe(`<p><a href="https://example.com/page" title="Title" ${REL}>site</a></p>\n`);
  });

  it('autolinks URLs, www. hosts and e-mail addresses, but not bare file names', () => {
    const html = render('See https://example.com/x, www.example.org, me@example.com, README.md and setup.py.');
    expect(html).toContain(`<a href="https://example.com/x" ${REL}>https://example.com/x</a>`);
    expect(html).toContain(`<a href="http://www.example.org/" ${REL}>www.example.org</a>`);
    expect(html).toContain(`<a href="mailto:me@example.com" ${REL}>me@example.com</a>`);
    expect(html).toContain('README.md and setup.py.');
  });

  it('keeps typography as written', () => {
    expect(render('"quotes" -- (c)')).toBe('<p>"quotes" -- (c)</p>\n');
  });
});

describe('links and images', () => {
  it('keeps anchors and absolute http(s) URLs', () => {
    expect(render('[a](#usage)')).toBe(`<p><a href="#usage" ${REL}>a</a></p>\n`);
    expect(render('![a](https://cdn.example/a.png)')).toBe('<p><img src="https://cdn.example/a.png" alt="a" /></p>\n');
    expect(render('[m](mailto:me@example.com)')).toContain('href="mailto:me@example.com"');
  });

  it('reads protocol-relative URLs as https', () => {
    expect(render('[a](//example.com/x)')).toContain('href="https://example.com/x"');
    expect(render('![a](//cdn.example/a.png)')).toContain('src="https://cdn.example/a.png"');
  });

  it('rewrites relative links and images through the context, against the README directory', () => {
    const html = render(
      '[use](USAGE.md#install) ![shot](img/a.png) [up](../LICENSE) [root](/CHANGELOG.md) [q](a.md?plain=1)',
      fakeContext('docs'),
    );
    expect(html).toContain(`<a href="https://forge.test/link/docs/USAGE.md#install" ${REL}>use</a>`);
    expect(html).toContain('<img src="https://forge.test/image/docs/img/a.png" alt="shot" />');
    expect(html).toContain('href="https://forge.test/link/LICENSE"');
    expect(html).toContain('href="https://forge.test/link/CHANGELOG.md"');
    expect(html).toContain('href="https://forge.test/link/docs/a.md"');
  });

  it('decodes and re-encodes file names', () => {
    expect(render('![a](<my shot.png>) ![b](caf%C3%A9.png)', fakeContext())).toContain('src="https://forge.test/image/my shot.png"');
  });

  it('drops references that climb above the repository root, keeping text and alt text', () => {
    expect(render('[out](../../etc/passwd) ![alt text](../../x.png) [in](../x.md)', fakeContext('docs'))).toBe(
      `<p>out alt text <a href="https://forge.test/link/x.md" ${REL}>in</a></p>\n`,
    );
  });

  it('drops relative references when there is no repository', () => {
    expect(render('[a](USAGE.md) ![b](b.png) [c](#c)', NO_REPOSITORY_CONTEXT)).toBe(`<p>a b <a href="#c" ${REL}>c</a></p>\n`);
  });

  it('drops what the context answers with something other than an http(s) URL', () => {
    const hostile: ReadmeContext = { readmeDir: '', linkUrl: () => 'javascript:alert(1)', imageUrl: () => 'data:image/png;base64,AA' };
    expect(render('[a](a.md) ![b](b.png)', hostile)).toBe('<p>a b</p>\n');
  });

  it.each([
    [
      'GitHub',
      { type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
      'acme/widget',
      'https://github.com/acme/widget/raw/v1.2.0/',
    ],
    [
      'GitLab under a path, nested groups',
      { type: 'gitlab', webUrl: 'https://host.example/gitlab', apiUrl: 'https://host.example/gitlab/api/v4' },
      'group/sub/widget',
      'https://host.example/gitlab/group/sub/widget/-/raw/v1.2.0/',
    ],
    [
      'Gitea',
      { type: 'gitea', webUrl: 'https://codeberg.org', apiUrl: 'https://codeberg.org/api/v1' },
      'acme/widget',
      'https://codeberg.org/acme/widget/raw/tag/v1.2.0/',
    ],
  ] as const)('points relative links and images at raw files at the tag on %s', (_name, forge, repoPath, rawRoot) => {
    const context = forgeReadmeContext({ forge, repoPath, tag: 'v1.2.0', readmePath: 'docs/README.md' });
    const html = render('![shot](<img/a b.png>) [guide](GUIDE.md#top) [license](../LICENSE)', context);
    expect(html).toContain(`<img src="${rawRoot}docs/img/a%20b.png" alt="shot" />`);
    expect(html).toContain(`<a href="${rawRoot}docs/GUIDE.md#top" ${REL}>guide</a>`);
    expect(html).toContain(`<a href="${rawRoot}LICENSE" ${REL}>license</a>`);
  });

  it('resolves against the README URL when the README came from one', () => {
    const context = urlReadmeContext('https://docs.example/widget/docs/README.md?raw=1');
    const html = render('![a](img/a.png) [b](../b.md) [c](/c.md) [d](../../../d.md)', context);
    expect(html).toContain('src="https://docs.example/widget/docs/img/a.png"');
    expect(html).toContain('href="https://docs.example/widget/b.md"');
    expect(html).toContain('href="https://docs.example/c.md"');
    expect(html).toContain('d');
    expect(html).not.toContain('d.md');
  });

  it('refuses to build a context for an invalid location', () => {
    const forge = { type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' } as const;
    expect(() => forgeReadmeContext({ forge, repoPath: 'acme/widget', tag: 'v1', readmePath: '../README.md' })).toThrow(/file path/);
    expect(() => forgeReadmeContext({ forge, repoPath: 'acme/widget', tag: '../v1', readmePath: 'README.md' })).toThrow(/tag/);
    expect(() => forgeReadmeContext({ forge, repoPath: 'acme', tag: 'v1', readmePath: 'README.md' })).toThrow(/owner\/repo/);
    expect(urlReadmeContext('javascript:alert(1)')).toBe(NO_REPOSITORY_CONTEXT);
    expect(urlReadmeContext('not a url')).toBe(NO_REPOSITORY_CONTEXT);
  });
});

describe('input bounds', () => {
  it('cuts markdown past the cap at a line end and says so', () => {
    const line = `${'word '.repeat(15)}\n\n`;
    const markdown = line.repeat(Math.ceil((README_MAX_LENGTH * 1.5) / line.length));
    const html = render(markdown);
    expect(html.endsWith(TRUNCATION_NOTICE)).toBe(true);
    expect(html.match(/<p>/g)?.length).toBeLessThanOrEqual(Math.ceil(README_MAX_LENGTH / line.length) + 1);
  });

  it('does not split a surrogate pair at the cut', () => {
    const markdown = `${'a'.repeat(README_MAX_LENGTH - 1)}😀😀`;
    expect(render(markdown)).not.toContain('\ufffd');
  });

  it('leaves markdown at the cap alone', () => {
    expect(render('a'.repeat(README_MAX_LENGTH))).not.toContain(TRUNCATION_NOTICE);
  });

  it.each([
    ['nested brackets', '['.repeat(README_MAX_LENGTH)],
    ['unclosed links', '[a]('.repeat(README_MAX_LENGTH / 4)],
    ['image openers', '![a'.repeat(README_MAX_LENGTH / 3)],
    ['emphasis runs', '*a_'.repeat(README_MAX_LENGTH / 3)],
    ['backticks', '`a``'.repeat(README_MAX_LENGTH / 4)],
    ['nested quotes', '> '.repeat(README_MAX_LENGTH / 2)],
    ['nested lists', Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n')],
    ['angle brackets', '<a'.repeat(README_MAX_LENGTH / 2)],
    ['entities', '&#x'.repeat(README_MAX_LENGTH / 3)],
    ['table cells', `|${'a|'.repeat(5000)}\n|${'-|'.repeat(5000)}\n${`|${'b|'.repeat(5000)}\n`.repeat(40)}`],
    ['linkify candidates', 'www.a.b '.repeat(README_MAX_LENGTH / 8)],
    ['over the cap', 'x'.repeat(README_MAX_LENGTH * 8)],
  ])('renders pathological %s to inert HTML', (_name, markdown) => {
    // markdown-it and htmlparser2 are linear, so each finishes in well under a second; a quadratic
    // regression would run into the test timeout. The times are figures of `npm run bench -- readme`.
    expect(inertnessProblems(render(markdown))).toEqual([]);
  });
});

describe('sanitizing stored HTML again (READMEs stored before their markdown was kept)', () => {
  it('leaves what the current renderer produced unchanged, so a re-sanitized README reads the same', () => {
    const markdown = [
      '# Title',
      '*em* **strong** ~~gone~~ `code` <b>raw</b>',
      '| a | b |\n|:--|--:|\n| 1 | 2 |',
      '```ts\nconst x = 1 < 2;\n```',
      '[link](https://example.test/x "t") ![img](docs/i.png) https://example.test www.example.test me@example.test',
      '> quote\n\n1. one\n2. two',
      `${'x'.repeat(README_MAX_LENGTH)}\nend`,
    ].join('\n\n');
    const html = render(markdown);
    expect(html).toContain(TRUNCATION_NOTICE);
    expect(runRenderJob({ sanitize: html }).html).toBe(html);
  });

  it('applies the current policy to HTML a laxer one let through', () => {
    expect(
      runRenderJob({ sanitize: '<p style="x" onclick="y()">a <a href="javascript:z()" target="_blank">b</a></p><script>s()</script>' })
        .html,
    ).toBe('<p>a b</p>');
  });
});
