import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { api } from './api';

interface Answer {
  error?: unknown;
  response: Response;
}

function stepUpAsked(answer: Answer): boolean {
  const type = (answer.error as { type?: unknown } | undefined)?.type;
  return answer.response.status === 403 && typeof type === 'string' && type.endsWith('/problems/step-up-required');
}

/**
 * Runs a credential change; when the server asks for a step-up (the session signed in over 10
 * minutes ago), has the person confirm it is them with one of their passkeys and runs it once
 * more. With no passkey, no WebAuthn, or the prompt dismissed, the first answer stands: its
 * message says the other ways (the current password, or signing in again).
 */
export async function withStepUp<T extends Answer>(change: () => Promise<T>): Promise<T> {
  const first = await change();
  if (!stepUpAsked(first) || !browserSupportsWebAuthn()) return first;
  const options = await api.POST('/api/auth/me/step-up/options', {});
  if (!options.data) return first;
  let answer;
  try {
    answer = await startAuthentication({ optionsJSON: options.data.options as never });
  } catch {
    return first;
  }
  const confirmed = await api.POST('/api/auth/me/step-up', { body: { passkey: answer as unknown as Record<string, unknown> } });
  return confirmed.response.ok ? change() : first;
}
