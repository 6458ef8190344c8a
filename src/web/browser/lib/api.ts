import { createRegistryClient, type RegistryClient } from '../../../client/registry-client';
import { bodylessAsJson } from './bodyless-as-json';

/**
 * The typed client on this origin: the browser sends the session cookie itself, and every
 * change goes out as JSON (which is what the API's CSRF check asks of cookie sessions).
 */
export const api: RegistryClient = createRegistryClient(window.location.origin);
api.use(bodylessAsJson);

interface ProblemLike {
  title?: string;
  detail?: string;
  errors?: { field?: string; pointer?: string; message?: string; detail?: string }[];
}

/** A readable sentence from an API problem+json answer, naming each field that was wrong. */
export function problemMessage(error: unknown, fallback = 'The request failed.'): string {
  if (!error || typeof error !== 'object') return fallback;
  const problem = error as ProblemLike;
  const fields = (problem.errors ?? [])
    .map((e) => [e.field ?? e.pointer, e.message ?? e.detail].filter(Boolean).join(': '))
    .filter(Boolean);
  const head = problem.detail ?? problem.title ?? fallback;
  return fields.length > 0 ? `${head} (${fields.join('; ')})` : head;
}
