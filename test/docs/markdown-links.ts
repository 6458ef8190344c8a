import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';

/**
 * What the documentation's link check needs from a markdown file: its headings' anchors and its
 * links, read the way GitHub renders them. Plain string work, no markdown library: the rules
 * below are the few the repository's pages use.
 */

/** One link as written: where it sits and its target (`page.md#anchor`, `#anchor`, `https://…`). */
export interface MarkdownLink {
  line: number;
  target: string;
}

/** Lines outside fenced code blocks, with their 1-based numbers; code spans blanked out. */
function proseLines(text: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fence: string | null = null;
  text.split('\n').forEach((raw, index) => {
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (opener) {
      if (fence === null) fence = opener[1];
      else if (opener[1][0] === fence[0] && opener[1].length >= fence.length && raw.trim() === opener[1]) fence = null;
      return;
    }
    if (fence !== null) return;
    // A code span shows its text literally: `[a](b)` inside one is not a link.
    lines.push({ line: index + 1, text: raw.replace(/(`+)(?:(?!\1).)+?\1/g, (span) => ' '.repeat(span.length)) });
  });
  return lines;
}

/** The text a heading shows: code spans keep their content, link and emphasis markup goes. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__|\*)(.+?)\1/g, '$2')
    .trim();
}

/**
 * GitHub's anchor for a heading's text: lower case, every character but letters, digits, spaces,
 * hyphens and underscores dropped, each space a hyphen (github-slugger's rules).
 */
export function githubSlug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a file's headings make; a repeated heading gets `-1`, `-2`, … as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(text);
    if (!heading) continue;
    const base = githubSlug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * Inline links and images (`[text](target)`, `![alt](src)`), whose text may wrap onto the next
 * lines, and reference definitions (`[x]: target`); each with the line its target is on.
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const lines = proseLines(markdown);
  const links: MarkdownLink[] = [];
  // The prose as one text, code blocks left out, so a link's text can run over a line break.
  const prose = lines.map(({ text }) => text).join('\n');
  const lineAt = (offset: number) => lines[prose.slice(0, offset).split('\n').length - 1].line;
  for (const match of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    links.push({ line: lineAt(match.index + match[0].indexOf('](')), target: match[1] });
  }
  for (const { line, text } of lines) {
    const definition = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/.exec(text);
    if (definition) links.push({ line, target: definition[1] });
  }
  return links.sort((a, b) => a.line - b.line);
}

/** Whether a target leaves the repository (a scheme such as https:, mailto:); those are not checked. */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * The dead relative links of one markdown file: a target file that does not exist, or an anchor
 * (`page.md#anchor`, `#anchor`) that no heading of that markdown file makes. `readText` reads a
 * markdown file by absolute path (tests hand in their own pages).
 */
export function deadLinks(
  file: string,
  readText: (path: string) => string = (path) => readFileSync(path, 'utf8'),
  exists: (path: string) => boolean = existsSync,
): string[] {
  const problems: string[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let found = anchorsOf.get(path);
    if (!found) anchorsOf.set(path, (found = headingAnchors(readText(path))));
    return found;
  };
  for (const { line, target } of markdownLinks(readText(file))) {
    if (isExternal(target)) continue;
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    const where = `${relative(process.cwd(), file)}:${line}: ${target}`;
    const path = pathPart === '' ? file : resolve(dirname(file), pathPart);
    if (!exists(path)) {
      problems.push(`${where}: no file ${relative(process.cwd(), path)}`);
      continue;
    }
    if (anchor === null || anchor === '') continue;
    if (!/\.md$/i.test(path)) {
      problems.push(`${where}: an anchor into a file that is not markdown`);
      continue;
    }
    if (!anchors(path).has(anchor)) problems.push(`${where}: no heading makes #${anchor} in ${relative(process.cwd(), path)}`);
  }
  return problems;
}
