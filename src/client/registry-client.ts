import createClient from 'openapi-fetch';
import type { paths } from './schema';

export type { components, paths } from './schema';

/** A client for every path of the registry's API, typed from the OpenAPI document it serves. */
export type RegistryClient = ReturnType<typeof createClient<paths>>;

export interface RegistryClientOptions {
  /** A publisher token or a session JWT, sent as `Authorization: Bearer`. */
  token?: string;
  /** Defaults to the global fetch; tests and other runtimes pass their own. */
  fetch?: typeof fetch;
  /** Sent with every request (the web pages pass on the visitor's cookie and language). */
  headers?: Record<string, string>;
}

/**
 * Framework-free, so the CLI (and anyone's scripts) can use it: `createRegistryClient(url)
 * .GET('/api/plugins/{slug}/releases/latest', { params: { path: { slug } } })`.
 */
export function createRegistryClient(baseUrl: string, options: RegistryClientOptions = {}): RegistryClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...options.headers, ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
