import type { components } from '../../../client/registry-client';

export type AddForgeBody = components['schemas']['AddForgeDto'];

/**
 * The "add a forge" fields (src/web/components/forge-fields.ts) come alive: picking a type fills
 * in that family's usual name and web address until the person has typed their own, and the
 * callback URL follows the name.
 */
export function forgeForm(form: HTMLFormElement): void {
  const type = form.querySelector<HTMLSelectElement>('[data-forge-type]');
  const name = form.querySelector<HTMLInputElement>('[data-forge-name]');
  const webUrl = form.querySelector<HTMLInputElement>('[data-forge-web-url]');
  const callback = form.querySelector<HTMLInputElement>('[data-forge-callback]');
  if (!type || !name || !webUrl || !callback) return;
  const showCallback = () => {
    callback.value = (callback.dataset.template ?? '').replace('{name}', name.value.trim() || '{name}');
  };
  for (const input of [name, webUrl]) input.addEventListener('input', () => (input.dataset.touched = 'true'));
  name.addEventListener('input', showCallback);
  type.addEventListener('change', () => {
    const choice = type.selectedOptions[0];
    if (!choice) return;
    if (!name.dataset.touched) name.value = choice.dataset.name ?? '';
    if (!webUrl.dataset.touched) webUrl.value = choice.dataset.webUrl ?? '';
    showCallback();
  });
}

/** The request body from the fields (an empty API address is left out: the API fills in the usual one). */
export function forgeBody(form: HTMLFormElement): AddForgeBody {
  const value = (field: string) => (form.elements.namedItem(field) as HTMLInputElement | HTMLSelectElement | null)?.value.trim() ?? '';
  const apiUrl = value('apiUrl');
  return {
    name: value('name'),
    type: value('type') as AddForgeBody['type'],
    webUrl: value('webUrl'),
    ...(apiUrl ? { apiUrl } : {}),
    clientId: value('clientId'),
    clientSecret: (form.elements.namedItem('clientSecret') as HTMLInputElement | null)?.value ?? '',
  };
}
