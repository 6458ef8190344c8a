import type { components } from '../../../client/registry-client';
import { api, problemMessage } from './api';
import { el } from './dom';
import { announce, t, tCount } from './page';

type RequestDto = components['schemas']['RequestDto'];

const votes = (count: number) => tCount('wishlist.votes', count);

function showVote(button: HTMLButtonElement, request: RequestDto): void {
  button.setAttribute('aria-pressed', String(request.voted));
  button.textContent = request.voted ? t('wishlist.voted') : t('wishlist.upvote');
  const count = document.getElementById(`votes-${request.id}`);
  if (count) count.textContent = votes(request.votes);
}

async function toggleVote(button: HTMLButtonElement, status: Element | null): Promise<void> {
  const id = button.dataset.upvote ?? '';
  const voted = button.getAttribute('aria-pressed') === 'true';
  button.disabled = true;
  const options = { params: { path: { id } } };
  const { data, error } = voted
    ? await api.DELETE('/api/requests/{id}/upvote', options)
    : await api.POST('/api/requests/{id}/upvote', options);
  button.disabled = false;
  if (!data) return announce(status, problemMessage(error, t('wishlist.failed')), 'error');
  showVote(button, data);
  announce(status, votes(data.votes));
}

/** A kind's label as the form's kind choice shows it (its key when the choice is gone). */
function kindLabel(key: string): string {
  const option = document.querySelector<HTMLOptionElement>(`#request-kind option[value="${CSS.escape(key)}"]`);
  return option?.textContent ?? key;
}

/** A new request's entry, as the server renders one (pages/catalogue/wishlist.pages.ts). */
function requestItem(request: RequestDto): HTMLLIElement {
  const button = el('button', {
    type: 'button',
    class: 'secondary vote',
    'data-upvote': request.id,
    'aria-describedby': `votes-${request.id}`,
  });
  showVote(button, request);
  return el(
    'li',
    { class: 'wish', id: `request-${request.id}` },
    el('div', { class: 'wish-votes' }, el('span', { class: 'votes', id: `votes-${request.id}` }, votes(request.votes)), button),
    el(
      'div',
      { class: 'wish-body' },
      el('h3', {}, request.title),
      request.description ? el('p', {}, request.description) : null,
      el(
        'p',
        { class: 'meta' },
        el('span', { class: 'badge' }, t(`wishlist.status.${request.status}`)),
        request.kind ? ' ' : null,
        request.kind ? el('a', { href: `/kinds/${encodeURIComponent(request.kind)}` }, kindLabel(request.kind)) : null,
      ),
    ),
  );
}

async function create(form: HTMLFormElement, status: Element | null): Promise<void> {
  for (const message of Array.from(form.querySelectorAll<HTMLElement>('[data-error-for]'))) message.textContent = '';
  for (const field of Array.from(form.querySelectorAll('[aria-invalid]'))) field.removeAttribute('aria-invalid');
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | null)?.value.trim() ?? '';
  const body = {
    title: value('title'),
    ...(value('description') ? { description: value('description') } : {}),
    ...(value('kind') ? { kind: value('kind') } : {}),
  };
  announce(status, t('status.working'), 'busy');
  const { data, error } = await api.POST('/api/requests', { body });
  if (!data) {
    // Each field's complaint goes beside it; the summary names them all.
    for (const problem of error?.errors ?? []) {
      const name = problem.path.replace(/^\//, '').split('/')[0];
      const slot = form.querySelector<HTMLElement>(`[data-error-for="${CSS.escape(name)}"]`);
      if (slot) slot.textContent = problem.message;
      const field = form.elements.namedItem(name);
      if (field instanceof Element) field.setAttribute('aria-invalid', 'true');
    }
    announce(status, problemMessage(error, t('wishlist.failed')), 'error');
    form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    return;
  }
  let list = document.getElementById('wishes');
  if (!list) {
    list = el('ol', { class: 'wishes', id: 'wishes' });
    document.getElementById('wishes-empty')?.replaceWith(list);
  }
  list.prepend(requestItem(data));
  form.reset();
  announce(status, t('wishlist.created'));
}

/** `/wishlist`: votes and new requests through the API, without a page load. */
export function enhanceWishlist(): void {
  const voteStatus = document.getElementById('vote-status');
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button[data-upvote]');
    if (button) void toggleVote(button, voteStatus);
  });
  const form = document.getElementById('request-form');
  if (!(form instanceof HTMLFormElement)) return;
  form.hidden = false;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void create(form, document.getElementById('request-status'));
  });
}
