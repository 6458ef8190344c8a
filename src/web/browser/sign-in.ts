import { browserSupportsWebAuthn, startAuthentication, WebAuthnError } from '@simplewebauthn/browser';
import { sameOriginNext } from '../../lib/net/safe-next';
import { api, problemMessage } from './lib/api';
import { announce, pageData, ready, t } from './lib/page';

/** Usernameless passkey sign-in: the browser offers the passkeys it has for this site. */
function passkeySignIn(): void {
  const button = document.getElementById('passkey-sign-in') as HTMLButtonElement | null;
  const status = document.getElementById('passkey-status');
  if (!button) return;
  if (!browserSupportsWebAuthn()) {
    announce(status, t('signIn.passkey.unsupported'), 'error');
    return;
  }
  button.hidden = false;
  button.addEventListener('click', () => {
    button.disabled = true;
    announce(status, t('status.working'), 'busy');
    void (async () => {
      try {
        const started = await api.POST('/api/auth/sign-in/passkey/options', {});
        if (!started.data) return announce(status, t('signIn.passkey.failed', { reason: problemMessage(started.error) }), 'error');
        let answer;
        try {
          answer = await startAuthentication({ optionsJSON: started.data.options as never });
        } catch (error) {
          const cancelled =
            error instanceof WebAuthnError
              ? error.code === 'ERROR_CEREMONY_ABORTED' || error.name === 'NotAllowedError'
              : (error as Error).name === 'NotAllowedError';
          return announce(
            status,
            cancelled ? t('signIn.passkey.cancelled') : t('signIn.passkey.failed', { reason: (error as Error).message }),
            'error',
          );
        }
        const finished = await api.POST('/api/auth/sign-in/passkey', { body: { response: answer as unknown as Record<string, unknown> } });
        if (!finished.data) return announce(status, t('signIn.passkey.failed', { reason: problemMessage(finished.error) }), 'error');
        // The page's `next` is checked on the server already; checked again here, resolved against this origin.
        window.location.assign(sameOriginNext(pageData<{ next: string }>()?.next, window.location.origin));
      } finally {
        button.disabled = false;
      }
    })();
  });
}

ready(passkeySignIn);
