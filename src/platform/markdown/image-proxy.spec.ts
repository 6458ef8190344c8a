import { imageProxyKey, isSignedImageUrl } from './proxy-signature';
import { forgeReadmeContext, NO_REPOSITORY_CONTEXT, renderReadme, runRenderJob } from './index';
import { MAX_PROXIED_IMAGES, sanitizeReadmeHtml } from './sanitize';

const key = imageProxyKey(Buffer.alloc(32, 3));
const forge = { type: 'github' as const, webUrl: 'https://github.com', apiUrl: 'https://api.github.com' };

/** Every img src in the HTML, decoded from its attribute. */
function sources(html: string): string[] {
  return [...html.matchAll(/<img src="([^"]*)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
}

function upstreamOf(src: string): string {
  const parsed = new URL(src, 'http://registry.test');
  expect(parsed.pathname).toBe('/image-proxy');
  const url = parsed.searchParams.get('url')!;
  expect(isSignedImageUrl(key, url, parsed.searchParams.get('sig')!)).toBe(true);
  return url;
}

describe('README images through the signed proxy', () => {
  it('rewrites every absolute image to a signed same-origin address', () => {
    const html = renderReadme('![a](https://cdn.example/a.png) and ![b](http://other.example/b.gif?x=1&y=2)', NO_REPOSITORY_CONTEXT, key);
    const srcs = sources(html);
    expect(srcs).toHaveLength(2);
    expect(srcs.map(upstreamOf)).toEqual(['https://cdn.example/a.png', 'http://other.example/b.gif?x=1&y=2']);
    expect(html).not.toMatch(/src="https?:/);
  });

  it('resolves a relative image against the raw file URL at the tag first, then proxies that', () => {
    const context = forgeReadmeContext({ forge, repoPath: 'acme/widget', tag: 'v1.2.0', readmePath: 'docs/README.md' });
    const [src] = sources(renderReadme('![shot](img/shot.png)', context, key));
    expect(upstreamOf(src)).toBe('https://github.com/acme/widget/raw/v1.2.0/docs/img/shot.png');
  });

  it('leaves links alone, and drops what it dropped before (data: images stay text)', () => {
    const html = renderReadme('[site](https://example.org/x.png) ![x](data:image/png;base64,AAAA)', NO_REPOSITORY_CONTEXT, key);
    expect(html).toContain('<a href="https://example.org/x.png"');
    expect(sources(html)).toEqual([]);
  });

  it('is stable: HTML sanitized again keeps its proxied addresses as they are', () => {
    const html = renderReadme('![a](https://cdn.example/a.png)', NO_REPOSITORY_CONTEXT, key);
    expect(sanitizeReadmeHtml(html, key)).toBe(html);
    expect(runRenderJob({ sanitize: html }, key).html).toBe(html);
  });

  it('proxies the images of HTML stored before the markdown was kept, when it is sanitized again', () => {
    const [src] = sources(runRenderJob({ sanitize: '<p><img src="https://cdn.example/old.png" alt="old"></p>' }, key).html);
    expect(upstreamOf(src)).toBe('https://cdn.example/old.png');
  });

  it('without a key (specs, benchmarks) keeps the absolute URLs', () => {
    expect(sources(renderReadme('![a](https://cdn.example/a.png)', NO_REPOSITORY_CONTEXT))).toEqual(['https://cdn.example/a.png']);
  });

  it(`proxies at most ${MAX_PROXIED_IMAGES} images of one README; the ones after become their alt text, escaped`, () => {
    const markdown = Array.from({ length: 60 }, (_, i) => `![shot <${i}>](https://cdn.example/${i}.png)`).join('\n\n');
    const html = renderReadme(markdown, NO_REPOSITORY_CONTEXT, key);
    const srcs = sources(html);
    expect(srcs).toHaveLength(MAX_PROXIED_IMAGES);
    expect(srcs.map(upstreamOf)).toEqual(Array.from({ length: MAX_PROXIED_IMAGES }, (_, i) => `https://cdn.example/${i}.png`));
    expect(html).not.toContain('cdn.example/50.png');
    expect(html).toContain('<p>shot &lt;50&gt;</p>');
    expect(html).toContain('<p>shot &lt;59&gt;</p>');
    // Counted per README: the next one gets its own 50, and sanitizing again keeps the result.
    expect(sources(renderReadme('![a](https://cdn.example/a.png)', NO_REPOSITORY_CONTEXT, key))).toHaveLength(1);
    expect(sanitizeReadmeHtml(html, key)).toBe(html);
  });

  it('counts images already proxied (HTML sanitized again) toward the cap', () => {
    const once = renderReadme(
      Array.from({ length: MAX_PROXIED_IMAGES }, (_, i) => `![${i}](https://cdn.example/${i}.png)`).join(' '),
      NO_REPOSITORY_CONTEXT,
      key,
    );
    const again = sanitizeReadmeHtml(`${once}<p><img src="https://cdn.example/extra.png" alt="extra"></p>`, key);
    expect(sources(again)).toHaveLength(MAX_PROXIED_IMAGES);
    expect(again).toContain('<p>extra</p>');
  });

  it('signs images already proxied again with the current key (KEY_ENCRYPTION_KEY changed, then re-rendered)', () => {
    const oldKey = imageProxyKey(Buffer.alloc(32, 9));
    const before = renderReadme('![a](https://cdn.example/a.png?x=1&y=2)', NO_REPOSITORY_CONTEXT, oldKey);
    const [src] = sources(runRenderJob({ sanitize: before }, key).html);
    expect(upstreamOf(src)).toBe('https://cdn.example/a.png?x=1&y=2');
  });
});
