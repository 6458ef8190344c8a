import { isIPv4 } from 'node:net';
import type { CliIo } from './command';
import { UsageError } from './manifest-files';
import { registryUrl } from './registry-kinds';

/** The registry could not be reached, or kept failing, after the retries (exit 3 in the commands that call it). */
export class NetworkFailure extends Error {}

/** Exit status of an author command whose registry could not be reached after the retries. */
export const EXIT_NETWORK = 3;

export const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * Calls the registry, retrying with backoff only what may pass on a second try: a network error
 * or a 5xx other than 502 (a 502 is the registry reporting an asset fetch that failed). A 4xx is
 * never retried. Only idempotent calls and the push (which a unique version guards) come here.
 */
export async function withRetries<T extends { response: Response }>(
  io: CliIo,
  command: string,
  what: string,
  call: () => Promise<T>,
): Promise<T> {
  const delay = Number(io.env.REGISTRY_RETRY_DELAY_MS ?? 1000);
  let last = '';
  for (let attempt = 1; attempt <= 4; attempt++) {
    try {
      const result = await call();
      const status = result.response.status;
      if (status < 500 || status === 502) return result;
      last = `HTTP ${status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    if (attempt < 4) {
      io.stderr(`registry ${command}: ${what} failed (${last}); retrying\n`);
      await sleep(delay * 2 ** (attempt - 1));
    }
  }
  throw new NetworkFailure(`${what} failed after 4 attempts: ${last}`);
}

/**
 * The registry's base URL for a command that sends a secret: plain http only to this machine, so
 * the secret (named by `secret`, the variable it comes from) never crosses a network in clear text.
 */
export function secureRegistryUrl(value: string, secret: string): string {
  const url = registryUrl(value);
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && !['localhost', '[::1]'].includes(hostname) && !(isIPv4(hostname) && hostname.startsWith('127.'))) {
    throw new UsageError(`registry '${url}' is plain http: ${secret} would cross the network in clear text; use https`);
  }
  return url;
}
