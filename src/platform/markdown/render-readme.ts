import type { ReadmeContext } from './context';
import { renderMarkdown } from './markdown';
import { sanitizeReadmeHtml } from './sanitize';

/**
 * The renderer's version, stored beside every rendered README. Bump it whenever what comes out can
 * change: the markdown-it options or token pass (markdown.ts), link rewriting (references.ts,
 * context.ts), the sanitize-html policy (sanitize.ts) or the truncation here. At start the server
 * re-renders, in the background, every stored README of an older version (ReadmeRerenderer).
 * 2: images go through the signed image proxy.
 * 3: at most MAX_PROXIED_IMAGES images (sanitize.ts) are proxied; the rest become their alt text.
 */
export const README_RENDER_VERSION = 3;

/** Markdown past this many UTF-16 code units is cut before rendering (512 Ki, about 512 KiB of ASCII). */
export const README_MAX_LENGTH = 512 * 1024;

// Cutting at a line end keeps the last block intact unless that line is itself enormous.
const LINE_SEARCH_WINDOW = 4096;

export const TRUNCATION_NOTICE = '<p><em>This README is longer than the registry renders; the rest is not shown.</em></p>';

function truncate(markdown: string): string {
  let end = README_MAX_LENGTH;
  const lineEnd = markdown.lastIndexOf('\n', end);
  if (lineEnd >= end - LINE_SEARCH_WINDOW) end = lineEnd;
  const code = markdown.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return markdown.slice(0, end);
}

/**
 * README markdown to sanitized HTML (the detail view's `readmeHtml`). Raw HTML in the markdown
 * is shown as text; relative links and images are resolved through `context`; the output is
 * passed through an allowlist sanitizer whatever the renderer did. Markdown longer than
 * README_MAX_LENGTH is cut at a line end and the HTML ends with TRUNCATION_NOTICE. With the
 * image proxy's key, every image is shown through the signed same-origin proxy.
 */
export function renderReadme(markdown: string, context: ReadmeContext, imageProxyKey: Buffer | null = null): string {
  const truncated = markdown.length > README_MAX_LENGTH;
  const source = truncated ? truncate(markdown) : markdown;
  const html = sanitizeReadmeHtml(renderMarkdown(source, context), imageProxyKey);
  return truncated ? `${html}${TRUNCATION_NOTICE}` : html;
}
