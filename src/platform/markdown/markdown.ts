import MarkdownIt from 'markdown-it';
import type { ReadmeContext } from './context';
import { isAllowedDestination, rewriteReference } from './references';

type Token = MarkdownIt.Token;

const CODE_LANGUAGE = /^[A-Za-z0-9_+#.-]{1,40}$/;
const ALIGNMENT = /^text-align:(left|right|center)$/;
// GitHub autolinks only these; linkify's bare-domain guesses turn `README.md` and `setup.py` into links.
const AUTOLINK_TEXT = /^(https?:\/\/|www\.)/i;

// Changing what this produces? Bump README_RENDER_VERSION (render-readme.ts): stored READMEs are then re-rendered.
/** Raw HTML is escaped (`html: false`); only http(s) and mailto destinations become links at all. */
function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt('default', { html: false, linkify: true, typographer: false });
  md.validateLink = isAllowedDestination;
  return md;
}

const markdown = createMarkdown();

function becomeText(token: Token, content: string): void {
  token.type = 'text';
  token.tag = '';
  token.nesting = 0;
  token.attrs = null;
  token.children = null;
  token.content = content;
}

function isAutolinkToKeep(tokens: Token[], index: number): boolean {
  const open = tokens[index];
  if (open.markup !== 'linkify') return true;
  if ((open.attrGet('href') ?? '').startsWith('mailto:')) return true;
  const text = tokens[index + 1];
  return text?.type === 'text' && AUTOLINK_TEXT.test(text.content);
}

/** Rewrites link and image destinations in one inline token list; a dropped link keeps its text. */
function rewriteInline(tokens: Token[], context: ReadmeContext): void {
  const dropped: boolean[] = [];
  tokens.forEach((token, index) => {
    if (token.type === 'link_open') {
      const target = isAutolinkToKeep(tokens, index) ? rewriteReference(token.attrGet('href') ?? '', 'link', context) : null;
      dropped.push(target === null);
      if (target === null) becomeText(token, '');
      else token.attrs = [['href', target], ...(token.attrs ?? []).filter(([name]) => name === 'title')];
    } else if (token.type === 'link_close') {
      if (dropped.pop()) becomeText(token, '');
    } else if (token.type === 'image') {
      const target = rewriteReference(token.attrGet('src') ?? '', 'image', context);
      if (target === null) becomeText(token, token.content);
      else token.attrSet('src', target);
    }
  });
}

/** Table alignment comes out of markdown-it as a style attribute; styles are never allowed, `align` is. */
function alignmentAsAttribute(token: Token): void {
  const alignment = ALIGNMENT.exec(token.attrGet('style') ?? '')?.[1];
  token.attrs = alignment ? [['align', alignment]] : null;
}

/** Keeps a fence's language only when it is a plain name, so `class="language-..."` stays boring. */
function plainLanguage(token: Token): void {
  const language = token.info.trim().split(/\s+/)[0] ?? '';
  token.info = CODE_LANGUAGE.test(language) ? language : '';
}

/** Renders markdown to (not yet sanitized) HTML with every link and image destination rewritten. */
export function renderMarkdown(source: string, context: ReadmeContext): string {
  const env = {};
  const tokens = markdown.parse(source, env);
  for (const token of tokens) {
    if (token.type === 'inline' && token.children) rewriteInline(token.children, context);
    else if (token.type === 'th_open' || token.type === 'td_open') alignmentAsAttribute(token);
    else if (token.type === 'fence') plainLanguage(token);
  }
  return markdown.renderer.render(tokens, markdown.options, env);
}
