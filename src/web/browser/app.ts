import { ready, t } from './lib/page';

/** Every page: copy buttons (`data-copy="#id"` copies that element's text) and sign-out. */
ready(() => {
  document.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('[data-copy]');
    if (!button) return;
    const source = document.querySelector(button.dataset.copy ?? '');
    const text = source instanceof HTMLInputElement || source instanceof HTMLTextAreaElement ? source.value : (source?.textContent ?? '');
    void navigator.clipboard?.writeText(text).then(
      () => {
        button.textContent = t('action.copied');
      },
      () => undefined,
    );
  });
});
