import type { MarkupNode } from '../../components/markup-tree';

/** A tiny element builder: attributes (false/null/undefined left out) and text or element children. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | null | undefined> = {},
  ...children: (Node | string | null | undefined | false)[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** Calls `run` once input has paused for `ms` milliseconds. */
export function debounce<A extends unknown[]>(run: (...args: A) => void, ms: number): (...args: A) => void {
  let timer: number | undefined;
  return (...args: A) => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => run(...args), ms);
  };
}

export function byId<T extends HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
}

/** Disables a button while its call runs, so a double click sends one request. */
export async function busy<T>(button: HTMLButtonElement | null, work: () => Promise<T>): Promise<T> {
  if (button) button.disabled = true;
  try {
    return await work();
  } finally {
    if (button) button.disabled = false;
  }
}

/** A shared part's markup (components/markup-tree.ts) as DOM nodes: the same part the server sends. */
export function fromMarkup(node: MarkupNode): Node | null {
  if (node === null || node === undefined || node === false) return null;
  if (typeof node === 'string') return document.createTextNode(node);
  return el(node.tag as keyof HTMLElementTagNameMap, node.attrs, ...node.children.map(fromMarkup));
}

/** Text in a `<code>` element. */
export function code(text: string): HTMLElement {
  const element = document.createElement('code');
  element.textContent = text;
  return element;
}
