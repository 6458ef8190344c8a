import { api, problemMessage } from './lib/api';
import { announce, ready, t } from './lib/page';
import { byId, busy } from './lib/dom';

/** `/account/subscriptions`: subscribe (the secret shown once), delete, enable, ping, replay. */

function subscribe(): void {
  const form = byId<HTMLFormElement>('subscription-form');
  const status = byId('subscription-status');
  form?.addEventListener('submit', (event) => {
    event.preventDefault();
    const events = Array.from(form.querySelectorAll<HTMLInputElement>('input[name="events"]:checked')).map((box) => box.value);
    if (events.length === 0) return announce(status, t('account.subscriptions.noEvent'), 'error');
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement).value.trim();
    const scope = value('scope');
    const target = value('target');
    const description = value('description');
    const body = {
      url: value('url'),
      events,
      scope,
      ...(scope === 'plugin' || scope === 'kind' ? { target } : {}),
      ...(description ? { description } : {}),
    };
    announce(status, t('status.working'), 'busy');
    void busy(form.querySelector('button[type="submit"]'), async () => {
      const { data, error } = await api.POST('/api/account/subscriptions', { body: body as never });
      if (!data) return announce(status, t('account.subscriptions.failed', { reason: problemMessage(error) }), 'error');
      announce(status, t('account.subscriptions.created'));
      const secret = byId<HTMLInputElement>('subscription-secret');
      if (secret) secret.value = data.secret;
      byId('subscription-created')?.removeAttribute('hidden');
      form.reset();
    });
  });
}

function actions(): void {
  const status = byId('subscription-action-status');
  const failed = (error: unknown) => announce(status, t('account.subscriptions.failed', { reason: problemMessage(error) }), 'error');
  document.getElementById('subscription-list')?.addEventListener('click', (event) => {
    const button = (event.target as Element | null)?.closest<HTMLButtonElement>('button');
    if (!button) return;
    const { deleteSubscription, pingSubscription, enableSubscription, replayDelivery, subscription } = button.dataset;
    if (deleteSubscription) {
      if (!window.confirm(t('account.subscriptions.deleteConfirm', { url: button.dataset.url ?? '' }))) return;
      void busy(button, async () => {
        const { response, error } = await api.DELETE('/api/account/subscriptions/{id}', { params: { path: { id: deleteSubscription } } });
        if (!response.ok) return failed(error);
        document.querySelector(`[data-subscription-id="${deleteSubscription}"]`)?.remove();
        announce(status, t('account.subscriptions.deleted'));
      });
    } else if (pingSubscription) {
      void busy(button, async () => {
        const { data, error } = await api.POST('/api/account/subscriptions/{id}/ping', { params: { path: { id: pingSubscription } } });
        if (!data) return failed(error);
        announce(
          status,
          t('account.subscriptions.pinged', {
            result: [data.responseStatus, data.detail, `(${data.durationMs} ms)`].filter((part) => part !== null).join(' '),
          }),
          data.ok ? 'ok' : 'error',
        );
      });
    } else if (enableSubscription) {
      void busy(button, async () => {
        const { data, error } = await api.POST('/api/account/subscriptions/{id}/enable', { params: { path: { id: enableSubscription } } });
        if (!data) return failed(error);
        button.remove();
        announce(status, t('account.subscriptions.enabled'));
      });
    } else if (replayDelivery && subscription) {
      void busy(button, async () => {
        const { data, error } = await api.POST('/api/account/subscriptions/{id}/deliveries/{deliveryId}/replay', {
          params: { path: { id: subscription, deliveryId: replayDelivery } },
        });
        if (!data) return failed(error);
        announce(status, t('account.subscriptions.replayed'));
      });
    }
  });
}

ready(() => {
  subscribe();
  actions();
});
