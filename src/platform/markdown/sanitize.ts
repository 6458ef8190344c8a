import sanitizeHtml from 'sanitize-html';
import { proxiedImageSrc } from './proxy-signature';

/** Elements a rendered README may contain. `sup`, `sub` and `kbd` cannot come out of markdown today; they are harmless if a plugin ever emits them. */
export const README_TAGS: readonly string[] = Object.freeze([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'p',
  'br',
  'hr',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  'del',
  's',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
  'kbd',
]);

/** Attributes per element; anything else (`style`, `class` outside code, `id`, `on*`, `target`) is dropped. */
export const README_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
  code: ['class'],
});

export const LINK_REL = 'nofollow noopener noreferrer ugc';

const ALIGN_VALUES = ['left', 'right', 'center'];

// Changing what this produces? Bump README_RENDER_VERSION (render-readme.ts): stored READMEs are then re-rendered.
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...README_TAGS],
  allowedAttributes: {
    ...Object.fromEntries(Object.entries(README_ATTRIBUTES).map(([tag, names]) => [tag, names.filter((n) => n !== 'align')])),
    th: [{ name: 'align', multiple: false, values: ALIGN_VALUES }],
    td: [{ name: 'align', multiple: false, values: ALIGN_VALUES }],
  },
  // Only the `language-*` class markdown-it puts on fenced code, so a client highlighter can work.
  allowedClasses: { code: [/^language-[A-Za-z0-9_+#.-]{1,40}$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedIframeHostnames: [],
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'template'],
  allowVulnerableTags: false,
  transformTags: {
    a: (tagName, attribs) => {
      const kept: sanitizeHtml.Attributes = {};
      if (attribs.href) kept.href = attribs.href;
      if (attribs.title) kept.title = attribs.title;
      return { tagName, attribs: { ...kept, rel: LINK_REL } };
    },
  },
  exclusiveFilter: (frame) => {
    if (frame.tag === 'img') return !frame.attribs.src;
    if (frame.tag === 'a' && !frame.attribs.href) return 'excludeTag';
    return false;
  },
};

const ABSOLUTE_HTTP = /^https?:\/\//i;
const PROXIED = /^\/image-proxy\?/;

/** The upstream URL of an address already proxied, or null when it names none. */
function proxiedUpstream(src: string): string | null {
  return new URL(src, 'http://registry.invalid').searchParams.get('url');
}

/**
 * Images one README shows through the proxy; the ones after are replaced by their alt text (an
 * image without alt text leaves nothing). A README may name hundreds of images, each a signed
 * address the proxy would fetch on a visitor's behalf: this bounds what one README can make the
 * registry fetch, while the alt text keeps what the image said.
 */
export const MAX_PROXIED_IMAGES = 50;

/**
 * The options with every absolute http(s) image shown through the signed image proxy: the page's
 * CSP allows images from this origin only, and the proxy fetches only what a README named. An
 * image already proxied (HTML sanitized again) is signed again with the current key: the same
 * address while the key is the same, a valid one after KEY_ENCRYPTION_KEY changed. Past MAX_PROXIED_IMAGES (those
 * already proxied count), an image becomes its alt text. One set of options per sanitize call:
 * the count is the call's.
 */
function withImageProxy(key: Buffer): sanitizeHtml.IOptions {
  let proxiedCount = 0;
  return {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      img: (tagName, attribs) => {
        const src = attribs.src ?? '';
        const absolute = ABSOLUTE_HTTP.test(src);
        if (!absolute && !PROXIED.test(src)) return { tagName, attribs };
        proxiedCount++;
        // A tag the sanitizer does not allow, with text: discarded, its text kept (escaped).
        if (proxiedCount > MAX_PROXIED_IMAGES) return { tagName: 'image-over-limit', attribs: {}, text: attribs.alt ?? '' };
        const upstream = absolute ? src : proxiedUpstream(src);
        return { tagName, attribs: upstream === null ? attribs : { ...attribs, src: proxiedImageSrc(key, upstream) } };
      },
    },
  };
}

/** The last word on what reaches a browser, whatever the renderer produced; images proxied when a key is given. */
export function sanitizeReadmeHtml(html: string, imageProxyKey: Buffer | null = null): string {
  return sanitizeHtml(html, imageProxyKey === null ? OPTIONS : withImageProxy(imageProxyKey));
}
