import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { AllowedHost, isAllowListed, isLocalhostName, refusedAddressKind } from '../../lib/net/address-policy';
import { AssetFetchError } from './fetch-error';
import { canonicalIp, formatIpAddress, parseIpAddress } from '../../lib/net/ip-address';

/** The resolver, shaped like `dns.lookup` with `{ all: true }`; injectable so tests decide what a name resolves to. */
export type LookupFunction = (
  hostname: string,
  options: { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export const systemLookup: LookupFunction = (hostname, options, callback) => dnsLookup(hostname, options, callback);

export interface TargetPolicy {
  allowed: readonly AllowedHost[];
  lookup: LookupFunction;
}

/**
 * The publisher sees the host and why, never the address it resolved to: an internal address is
 * exactly what an SSRF probe would like to learn.
 */
function refusedHostMessage(host: string, refusal: string): string {
  return `refused host ${host}: it resolves to an address that is not fetched (${refusal}); only hosts in FETCH_ALLOW_HOSTS may use private addresses`;
}

/** Where one hop may connect: the URL's host and the only addresses that passed the policy. */
export interface FetchTarget {
  url: URL;
  secure: boolean;
  /** Host for the Host header and TLS server name; IPv6 without brackets. */
  hostname: string;
  port: number;
  allowListed: boolean;
  /** Vetted, in the resolver's order; the connection may use no other. */
  addresses: readonly LookupAddress[];
}

/**
 * Applies the fetch policy to one URL (the first or a redirect hop) and resolves its host once.
 * The connection is then made to these addresses only, so a second, different DNS answer at
 * connect time (rebinding) never gets a say.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy, signal: AbortSignal): Promise<FetchTarget> {
  const href = url.href;
  const displayHost = url.hostname;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AssetFetchError('refused-scheme', `refused scheme ${url.protocol} for host ${displayHost}: only https is fetched`, {
      url: href,
    });
  }
  const secure = url.protocol === 'https:';
  const port = url.port === '' ? (secure ? 443 : 80) : Number(url.port);
  const allowListed = isAllowListed(policy.allowed, url.hostname, port);
  if (!secure && !allowListed) {
    throw new AssetFetchError(
      'refused-scheme',
      `refused plain http for host ${displayHost}: only https is fetched (the operator can allow a host with FETCH_ALLOW_HOSTS)`,
      { url: href },
    );
  }
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!allowListed && isLocalhostName(hostname)) {
    throw new AssetFetchError('refused-address', `refused host ${displayHost}: a local name`, { url: href });
  }

  const literal = parseIpAddress(hostname);
  const addresses = literal
    ? [{ address: formatIpAddress(literal), family: literal.length === 4 ? 4 : 6 }]
    : await resolveHost(hostname, href, policy.lookup, signal);
  if (addresses.length === 0) {
    throw new AssetFetchError('network', `host ${displayHost} has no addresses`, { url: href });
  }
  // One bad address refuses the host: the connection could land on any of them, and a name
  // that mixes public and private answers is what a rebinding attack looks like.
  for (const { address } of addresses) {
    const bytes = parseIpAddress(address);
    const refusal = bytes ? (allowListed ? null : refusedAddressKind(bytes)) : 'not an IP address';
    if (refusal !== null) {
      throw new AssetFetchError('refused-address', refusedHostMessage(displayHost, refusal), { url: href });
    }
  }
  return { url, secure, hostname, port, allowListed, addresses };
}

function resolveHost(hostname: string, href: string, lookup: LookupFunction, signal: AbortSignal): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    lookup(hostname, { all: true }, (error, addresses) => {
      signal.removeEventListener('abort', onAbort);
      if (error) {
        const code = typeof error.code === 'string' ? ` (${error.code})` : '';
        reject(new AssetFetchError('network', `could not resolve host ${hostname}${code}`, { url: href, cause: error }));
      } else {
        resolve(addresses);
      }
    });
  });
}

/**
 * The last guard, run when the socket has connected: the peer must be one of the vetted addresses
 * (and, for a host that is not allow-listed, still a public one). Returns the refusal, or null.
 */
export function checkConnectedPeer(target: FetchTarget, remoteAddress: string | undefined): AssetFetchError | null {
  const peer = remoteAddress === undefined ? null : parseIpAddress(remoteAddress);
  const vetted = new Set(
    target.addresses.flatMap(({ address }) => {
      const bytes = parseIpAddress(address);
      return bytes ? [canonicalIp(bytes)] : [];
    }),
  );
  const refusal = !peer
    ? 'peer address unknown'
    : !vetted.has(canonicalIp(peer))
      ? 'not the address that was checked'
      : target.allowListed
        ? null
        : refusedAddressKind(peer);
  if (refusal === null) return null;
  return new AssetFetchError('refused-address', refusedHostMessage(target.url.hostname, refusal), {
    url: target.url.href,
  });
}
