import { countText, formatNumber } from '../../i18n/plural';

/** The UI strings the server rendered for this page's scripts (the page's language). */
export function strings(): Record<string, string> {
  const block = document.getElementById('page-strings');
  return block?.textContent ? (JSON.parse(block.textContent) as Record<string, string>) : {};
}

/** Looks up a string the page asked the server for; the key itself when it is missing. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const text = strings()[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** The language the page's strings are written in (their plural rules and number format). */
function stringsLocale(): string {
  return document.getElementById('page-strings')?.dataset.locale ?? 'en';
}

/** A counted message in its plural form (the page asked for `pluralKeys(key)`): "1 vote", "2 votes". */
export function tCount(key: string, count: number, params: Record<string, string | number> = {}): string {
  const all = strings();
  return countText(stringsLocale(), t, (name) => name in all, key, count, params);
}

/** A number as the page's language writes it. */
export function formatCount(value: number): string {
  return formatNumber(stringsLocale(), value);
}

/** The data block the server rendered for this page's scripts, if any. */
export function pageData<T>(): T | null {
  const block = document.getElementById('page-data');
  return block?.textContent ? (JSON.parse(block.textContent) as T) : null;
}

/** Runs once the document is parsed (scripts are modules, so usually at once). */
export function ready(run: () => void): void {
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', run, { once: true });
  else run();
}

/** Writes a status into a live region, so screen readers hear it too. */
export function announce(region: Element | null, text: string, kind: 'ok' | 'error' | 'busy' = 'ok'): void {
  if (!region) return;
  region.textContent = text;
  region.setAttribute('data-kind', kind);
}

/** A form's named fields as a plain object (checkboxes as booleans, empty strings left out). */
export function formValues(form: HTMLFormElement): Record<string, string | boolean | string[]> {
  const values: Record<string, string | boolean | string[]> = {};
  for (const element of Array.from(form.elements)) {
    if (
      !(element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) ||
      !element.name
    )
      continue;
    if (element instanceof HTMLInputElement && element.type === 'checkbox') {
      if (element.value && element.value !== 'on') {
        const list = (values[element.name] as string[] | undefined) ?? [];
        if (element.checked) list.push(element.value);
        values[element.name] = list;
      } else values[element.name] = element.checked;
    } else if (element instanceof HTMLSelectElement && element.multiple) {
      values[element.name] = Array.from(element.selectedOptions).map((o) => o.value);
    } else if (element.value !== '') values[element.name] = element.value;
  }
  return values;
}
