import { html, raw, type HtmlValue, type SafeHtml } from '../html';
import type { Translate } from '../i18n/messages';

/**
 * A box that scrolls sideways when its content is wider than the screen (a table on a phone),
 * reachable by keyboard: focusable (tabindex=0, so arrow keys scroll it) and named. A group, not
 * a region: the section around it is already the landmark, under the same name.
 */
export function scrollRegion(label: string, content: HtmlValue, className = 'table-scroll'): SafeHtml {
  return html`<div class="${className}" role="group" tabindex="0" aria-label="${label}">${content}</div>`;
}

/**
 * Sanitized HTML (a README, a CMS page) with each code block and table made reachable by keyboard
 * when it scrolls: a code block focusable and named "Code block n", a table inside a named,
 * focusable scrolling box (groups too: a long README is not a page of landmarks).
 */
export function focusableScrollers(sanitized: string, t: Translate): SafeHtml {
  let code = 0;
  let table = 0;
  const withCode = sanitized.replace(/<pre(?=[\s>])([^>]*)>/gi, (_whole, attributes: string) => {
    code += 1;
    return `<pre${attributes} tabindex="0" role="group" aria-label="${t('scroll.codeBlock', { n: code })}">`;
  });
  const withTables = withCode
    .replace(/<table(?=[\s>])/gi, () => {
      table += 1;
      return `<div class="table-scroll" tabindex="0" role="group" aria-label="${t('scroll.table', { n: table })}"><table`;
    })
    .replace(/<\/table>/gi, '</table></div>');
  return raw(withTables);
}
