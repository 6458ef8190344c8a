import fc from 'fast-check';
import { forgeReadmeContext, renderReadme } from './index';
import type { ReadmeContext } from './index';
import { inertnessProblems } from './testing/inert-html';

const fakeContext: ReadmeContext = {
  readmeDir: 'docs',
  linkUrl: (path) => `https://forge.test/link/${path}`,
  imageUrl: (path) => `https://forge.test/image/${path}`,
};
const contexts: [string, ReadmeContext][] = [
  ['a fake forge', fakeContext],
  [
    'GitHub',
    forgeReadmeContext({
      forge: { type: 'github', webUrl: 'https://github.com', apiUrl: 'https://api.github.com' },
      repoPath: 'acme/widget',
      tag: 'v1.0.0',
      readmePath: 'README.md',
    }),
  ],
];

const CORPUS: readonly string[] = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/x.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>script>alert(1)<</script>/script>',
  '<img src=x onerror=alert(1)>',
  '<img src="x" onerror="alert(1)"/>',
  '<x onclick=alert(1)>x</x>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](JaVaScRiPt:alert(1))',
  '[x](java&#x09;script:alert(1))',
  '[x](java&#9;script:alert(1))',
  '[x](java&Tab;script:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:alert(1))',
  '[x](javascript&colon;alert(1))',
  '[x](javascript&#58;alert(1))',
  '[x](  javascript:alert(1))',
  '[x](\u0001javascript:alert(1))',
  '[x](<javascript:alert(1)>)',
  '[x](<java script:alert(1)>)',
  '[x](vbscript:msgbox(1))',
  '[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[x](file:///etc/passwd)',
  '[x](https:javascript:alert(1))',
  '[x](mailto:javascript:alert(1))',
  '[x](https://user:pass@evil.example/)',
  '[x](//evil.example/%0a%0djavascript:alert(1))',
  '[x](\\\\evil.example/x)',
  '[x](/\\evil.example/x)',
  '[x](%2F%2Fevil.example/x)',
  '[x](..%2F..%2F..%2Fetc/passwd)',
  '[x](%00javascript:alert(1))',
  '[click](#" onclick="alert(1))',
  '[x](https://example.com" onmouseover="alert(1))',
  '[x](https://example.com "onmouseover=alert(1)")',
  '[x](https://example.com \'" onmouseover="alert(1)\')',
  '[x][ref]\n\n[ref]: javascript:alert(1)',
  '[x][ref]\n\n[ref]: <java&#x09;script:alert(1)> "t"',
  '![x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '![x](data:image/png;base64,iVBORw0KGgo=)',
  '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
  '![x](javascript:alert(1))',
  '![x](mailto:a@example.com)',
  '![x" onerror="alert(1)](https://a.example/x.png)',
  '![x](https://a.example/x.png" onerror="alert(1))',
  '![x](x.svg#"><script>alert(1)</script>)',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href=x>x</a>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<math><mi><mglyph><style><img src=x onerror=alert(1)>',
  '<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;img src=1 onerror=alert(1)&gt;">',
  '<form><math><mtext></form><form><mglyph><style></math><img src onerror=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  '<form action="https://evil.example"><input name=x><button>go</button></form>',
  '<style>body{display:none}</style>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<base href="https://evil.example/">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel=stylesheet href=https://evil.example/x.css>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<details open ontoggle=alert(1)><summary>x</summary></details>',
  '<!-- comment --><![CDATA[x]]><?php echo 1; ?>',
  '[x](https://example.com){style="color:red" onclick="alert(1)"}',
  '# Heading {#id .class style="color:red"}',
  '<javascript:alert(1)>',
  '<JavaScript:alert(1)>',
  '<vbscript:msgbox(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  '<mailto:a@example.com?subject=<script>alert(1)</script>>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  '&#60;script&#62;alert(1)&#60;/script&#62;',
  '&#x3C;img src=x onerror=alert(1)&#x3E;',
  '&amp;lt;script&amp;gt;',
  '```js" onmouseover="alert(1)\nx\n```',
  '```<script>\nx\n```',
  '`<script>alert(1)</script>` and ``<img src=x onerror=alert(1)>``',
  '    <script>alert(1)</script>',
  'www.example.com/"onmouseover="alert(1)',
  'https://example.com/<script>alert(1)</script>',
  'https://example.com/"><img src=x onerror=alert(1)>',
  '| <script> | x |\n|---|---|\n| <img src=x onerror=alert(1)> | y |',
  '| a |\n|:-:|\n| b |" onclick="x',
  '\u0000<script>alert(1)</script>',
  '\ufeff<script>alert(1)</script>',
  '[x](\u202ejavascript:alert(1))',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
];

describe('hostile README corpus', () => {
  describe.each(contexts)('with %s', (_name, context) => {
    it.each(CORPUS.map((markdown) => [markdown]))('renders %j inert', (markdown) => {
      expect(inertnessProblems(renderReadme(markdown, context))).toEqual([]);
    });
  });

  it('shows hostile HTML as text rather than dropping it', () => {
    expect(renderReadme('<script>alert(1)</script>', fakeContext)).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(renderReadme('<img src=x onerror=alert(1)>', fakeContext)).toBe('<p>&lt;img src=x onerror=alert(1)&gt;</p>\n');
  });

  it('leaves no javascript:, vbscript: or data: destination in any attribute', () => {
    for (const markdown of CORPUS) {
      const html = renderReadme(markdown, fakeContext);
      for (const [tag] of html.matchAll(/<[^>]*>/g)) {
        for (const [, value] of tag.matchAll(/ (?:href|src)="([^"]*)"/g)) {
          expect(value).toMatch(/^(https?:\/\/|mailto:|#)/);
        }
      }
    }
  });

  it('sees through the predicate’s own blind spots: it flags what it should', () => {
    expect(inertnessProblems('<p onclick="x">a</p>')).not.toEqual([]);
    expect(inertnessProblems('<a href="java&#x09;script:alert(1)">a</a>')).not.toEqual([]);
    expect(inertnessProblems('<a href="JAVASCRIPT&colon;alert(1)">a</a>')).not.toEqual([]);
    expect(inertnessProblems('<img src="//evil.example/x.png">')).not.toEqual([]);
    expect(inertnessProblems('<span>a</span>')).not.toEqual([]);
    expect(inertnessProblems('<p style="x">a</p>')).not.toEqual([]);
    expect(inertnessProblems('<!-- x -->')).not.toEqual([]);
    expect(inertnessProblems('<p>a</p>')).toEqual([]);
  });
});

const HOSTILE_FRAGMENTS = [
  '<',
  '>',
  '"',
  "'",
  '=',
  '&',
  ';',
  ':',
  '/',
  '\\',
  ' ',
  '\n',
  '\n\n',
  '\t',
  '\u0000',
  '#',
  '%',
  '`',
  '```',
  '*',
  '_',
  '~~',
  '[',
  ']',
  '(',
  ')',
  '![',
  '](',
  '<a ',
  '<img ',
  '<script>',
  '</script>',
  '<svg',
  '<style>',
  '<math>',
  '<noscript>',
  'javascript',
  'JavaScript',
  'vbscript',
  'data',
  'mailto',
  'http',
  'https',
  '//',
  'www.',
  'evil.example',
  '@',
  'onerror',
  'onload',
  'onclick',
  'src',
  'href',
  'style',
  'alert(1)',
  '&#x09;',
  '&#106;',
  '&colon;',
  '&Tab;',
  '&#58;',
  '%0a',
  '%09',
  '..',
  '../',
  '|',
  '|---|',
  '> ',
  '- ',
  '1. ',
  '    ',
  '{',
  '}',
  '.',
  'x',
  'é',
  '\u2028',
  '\ufeff',
];

describe('inertness property', () => {
  const context = fakeContext;

  it('holds for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (markdown) => {
        expect(inertnessProblems(renderReadme(markdown, context))).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('holds for strings built from a hostile alphabet', () => {
    const hostile = fc.array(fc.constantFrom(...HOSTILE_FRAGMENTS), { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(hostile, (markdown) => {
        expect(inertnessProblems(renderReadme(markdown, context))).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });

  it('holds whatever URL a context hands back', () => {
    const anyUrl = fc.oneof(
      fc.constantFrom('javascript:alert(1)', 'data:text/html,x', '//evil.example', ' https://x.example', 'https://x.example/"><script>'),
      fc.webUrl(),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(anyUrl, fc.constantFrom('[a](b.md)', '![a](b.png)', '[a](./x/../y.md#z)'), (url, markdown) => {
        const answering: ReadmeContext = { readmeDir: '', linkUrl: () => url, imageUrl: () => url };
        expect(inertnessProblems(renderReadme(markdown, answering))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});
