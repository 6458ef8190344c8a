import { createRequire } from 'node:module';
import { LINK_REL, README_ATTRIBUTES, README_TAGS } from '../sanitize';

interface ParserHandler {
  onopentag(name: string, attribs: Record<string, string>): void;
  oncomment(data: string): void;
  onprocessinginstruction(name: string, data: string): void;
  oncdatastart(): void;
}

interface HtmlParser {
  write(chunk: string): void;
  end(): void;
}

type ParserConstructor = new (
  handler: ParserHandler,
  options: { decodeEntities: boolean; lowerCaseTags: boolean; lowerCaseAttributeNames: boolean },
) => HtmlParser;

// The parser sanitize-html itself reads with, resolved from sanitize-html's own dependencies
// (the hoisted htmlparser2 is a newer, ESM-only major).
const fromSanitizeHtml = createRequire(require.resolve('sanitize-html'));
const { Parser } = fromSanitizeHtml('htmlparser2') as { Parser: ParserConstructor };

const URL_SCHEMES: Record<string, readonly string[]> = { a: ['http', 'https', 'mailto'], img: ['http', 'https'] };
const ALIGN_VALUES = ['left', 'right', 'center'];
// eslint-disable-next-line no-control-regex
const IGNORED_BY_URL_PARSERS = /[\u0000-\u0020\u007f-\u009f]/g;
const NEVER_ANYWHERE = ['<script', '<style', '<iframe', '<svg', '<math', '<object', '<embed', '<form', '<noscript', '<template'];

function urlProblem(tag: string, name: string, value: string): string | null {
  const cleaned = value.replace(IGNORED_BY_URL_PARSERS, '').toLowerCase();
  if (tag === 'a' && cleaned.startsWith('#')) return null;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(cleaned)?.[1];
  if (!scheme) return `<${tag} ${name}="${value}"> is not an absolute URL`;
  if (!URL_SCHEMES[tag]?.includes(scheme)) return `<${tag} ${name}="${value}"> uses the scheme ${scheme}:`;
  return null;
}

function attributeProblem(tag: string, name: string, value: string): string | null {
  if (name.startsWith('on')) return `<${tag}> has the event handler ${name}`;
  if (!README_ATTRIBUTES[tag]?.includes(name)) return `<${tag}> has the attribute ${name}`;
  if (name === 'href' || name === 'src') return urlProblem(tag, name, value);
  if (name === 'class' && !/^language-[A-Za-z0-9_+#.-]+$/.test(value)) return `<${tag}> has class="${value}"`;
  if (name === 'rel' && value !== LINK_REL) return `<a> has rel="${value}"`;
  if (name === 'align' && !ALIGN_VALUES.includes(value)) return `<${tag}> has align="${value}"`;
  return null;
}

/** Every `<` in sanitized output must open or close an allowed element; text `<` is always escaped. */
function markupProblems(html: string): string[] {
  const problems: string[] = [];
  for (const match of html.matchAll(/<(\/?)([^\s/>]*)/g)) {
    if (!README_TAGS.includes(match[2])) problems.push(`markup "${match[0]}" outside the allowlist`);
  }
  const lower = html.toLowerCase();
  for (const needle of NEVER_ANYWHERE) if (lower.includes(needle)) problems.push(`contains ${needle}`);
  return problems;
}

/**
 * What makes an HTML string unsafe to put in a page, as a list (empty = inert): elements outside
 * the README allowlist, attributes outside it, event handlers, href/src that are not absolute
 * URLs of an allowed scheme once entities are decoded and the characters browsers skip are
 * removed, comments, processing instructions, CDATA.
 */
export function inertnessProblems(html: string): string[] {
  const problems = markupProblems(html);
  const parser = new Parser(
    {
      onopentag(tag, attribs) {
        if (!README_TAGS.includes(tag)) problems.push(`element <${tag}>`);
        for (const [name, value] of Object.entries(attribs)) {
          const problem = attributeProblem(tag, name, value);
          if (problem) problems.push(problem);
        }
      },
      oncomment: (data) => problems.push(`comment ${data}`),
      onprocessinginstruction: (name) => problems.push(`processing instruction ${name}`),
      oncdatastart: () => problems.push('CDATA section'),
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return problems;
}
