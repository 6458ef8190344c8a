import { Agent as HttpAgent, type ClientRequestArgs } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { parseAllowedHost } from '../../lib/net/address-policy';
import { checkConnectedPeer, type LookupFunction, resolveTarget, systemLookup, type TargetPolicy } from './fetch-target';
import { vettedLookup } from './http-exchange';

/** Agents for clients that make their own requests (passport's OAuth 2 client), one per scheme. */
export interface PolicyAgents {
  http: HttpAgent;
  https: HttpsAgent;
}

export interface PolicyAgentOptions {
  /** FETCH_ALLOW_HOSTS: the hosts that may use http and private addresses. */
  allowHosts: readonly string[];
  /** Defaults to `dns.lookup`; tests decide what a name resolves to. */
  lookup?: LookupFunction;
  /** How long one host's resolution may take. */
  resolveTimeoutMs?: number;
}

type ConnectCallback = (error: Error | null, stream: Duplex) => void;

/**
 * Applies the fetch policy (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch)
 * to every connection an agent opens, as the SSRF-safe fetcher does: the host is resolved once and
 * refused when any address is private, loopback, link-local or cloud metadata (unless the host is
 * in FETCH_ALLOW_HOSTS), plain http is refused for the others, and the socket connects to the
 * vetted addresses only, the peer checked again once connected. A URL vetted when it was entered
 * can resolve elsewhere later; this is the check at the moment a client secret or token is about to
 * be sent.
 */
function guard<A extends HttpAgent>(agent: A, secure: boolean, policy: TargetPolicy, timeoutMs: number): A {
  const connect = agent.createConnection.bind(agent) as (options: ClientRequestArgs) => Duplex;
  const defaultPort = secure ? 443 : 80;
  agent.createConnection = ((options: ClientRequestArgs, callback: ConnectCallback) => {
    const host = options.host ?? options.hostname ?? 'localhost';
    const port = Number(options.port ?? defaultPort) || defaultPort;
    let url: URL;
    try {
      url = new URL(`${secure ? 'https' : 'http'}://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}/`);
    } catch (error) {
      process.nextTick(() => callback(error as Error, undefined as unknown as Duplex));
      return undefined;
    }
    resolveTarget(url, policy, AbortSignal.timeout(timeoutMs)).then(
      (target) => {
        const socket = connect({ ...options, lookup: vettedLookup(target) });
        socket.once('connect', () => {
          const refusal = checkConnectedPeer(target, (socket as Socket).remoteAddress);
          if (refusal) socket.destroy(refusal);
        });
        callback(null, socket);
      },
      (error: Error) => callback(error, undefined as unknown as Duplex),
    );
    // Undefined: the agent waits for the callback.
    return undefined;
  }) as A['createConnection'];
  return agent;
}

/** An http and an https agent that connect only where the fetch policy allows. */
export function policyAgents(options: PolicyAgentOptions): PolicyAgents {
  const policy: TargetPolicy = { allowed: options.allowHosts.map(parseAllowedHost), lookup: options.lookup ?? systemLookup };
  const timeoutMs = options.resolveTimeoutMs ?? 10_000;
  return { http: guard(new HttpAgent(), false, policy, timeoutMs), https: guard(new HttpsAgent(), true, policy, timeoutMs) };
}
