/**
 * Which addresses a fetch of a publisher's URL may reach
 * (docs/decisions.md#one-ingest-for-push-and-webhook-with-a-guarded-fetch), and the
 * FETCH_ALLOW_HOSTS entries that lift the refusal. Pure: the fetcher (`src/common/fetch`) applies
 * it, and config parses FETCH_ALLOW_HOSTS with the same grammar, so a typo stops the start, not the
 * first fetch.
 */
import { inNetwork, IpBytes, parseIpAddress } from './ip-address';

interface Range {
  network: IpBytes;
  prefixLength: number;
  /** Said in the refusal message, so a publisher sees why (e.g. "loopback"). */
  kind: string;
}

function range(cidr: string, kind: string): Range {
  const [address, prefixLength] = cidr.split('/');
  const network = parseIpAddress(address);
  if (!network) throw new Error(`bad range ${cidr}`);
  return { network, prefixLength: Number(prefixLength), kind };
}

// Metadata endpoints come first so the refusal names them even though they also sit in a wider
// private range below.
const METADATA: readonly Range[] = [
  range('169.254.169.254/32', 'cloud metadata'),
  range('169.254.170.2/32', 'cloud metadata'),
  range('100.100.100.200/32', 'cloud metadata'),
  range('192.0.0.192/32', 'cloud metadata'),
  range('fd00:ec2::254/128', 'cloud metadata'),
];

const IPV4_REFUSED: readonly Range[] = [
  ...METADATA.filter((r) => r.network.length === 4),
  range('255.255.255.255/32', 'broadcast'),
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared address space (CGNAT)'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'IETF protocol assignment'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', '6to4 relay'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'benchmarking'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

// Ranges whose last 32 bits (or, for 6to4, bits 16-47) are an IPv4 address that decides where
// the packets really go; the IPv4 rules apply to that address.
const IPV6_EMBEDDING: readonly { range: Range; offset: number }[] = [
  { range: range('::ffff:0:0/96', 'IPv4-mapped'), offset: 12 },
  { range: range('64:ff9b::/96', 'NAT64'), offset: 12 },
  { range: range('2002::/16', '6to4'), offset: 2 },
];

// Inside global unicast (2000::/3) these are still not somewhere an asset can live.
const IPV6_REFUSED_INSIDE_GLOBAL: readonly Range[] = [
  range('2001::/23', 'IETF protocol assignment (Teredo, benchmarking, ORCHID)'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
];

const IPV6_GLOBAL_UNICAST = range('2000::/3', 'global unicast');

// Only used to name the refusal: everything outside 2000::/3 is refused whatever it is.
const IPV6_NAMED: readonly Range[] = [
  ...METADATA.filter((r) => r.network.length === 16),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('::/96', 'IPv4-compatible'),
  range('::ffff:0:0:0/96', 'IPv4-translated'),
  range('64:ff9b:1::/48', 'local NAT64'),
  range('100::/64', 'discard-only'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

function firstMatch(bytes: IpBytes, ranges: readonly Range[]): Range | undefined {
  return ranges.find((r) => inNetwork(bytes, r.network, r.prefixLength));
}

/**
 * Why an address must not be connected to, or null when it is publicly routable. IPv6 is judged
 * by allow-list (only global unicast passes) so that a range nobody thought of is refused rather
 * than reached.
 */
export function refusedAddressKind(bytes: IpBytes): string | null {
  if (bytes.length === 4) return firstMatch(bytes, IPV4_REFUSED)?.kind ?? null;
  for (const { range: embedding, offset } of IPV6_EMBEDDING) {
    if (!inNetwork(bytes, embedding.network, embedding.prefixLength)) continue;
    const inner = refusedAddressKind(bytes.subarray(offset, offset + 4));
    return inner === null ? null : `${embedding.kind} ${inner}`;
  }
  if (inNetwork(bytes, IPV6_GLOBAL_UNICAST.network, IPV6_GLOBAL_UNICAST.prefixLength)) {
    return firstMatch(bytes, IPV6_REFUSED_INSIDE_GLOBAL)?.kind ?? null;
  }
  return firstMatch(bytes, IPV6_NAMED)?.kind ?? 'reserved';
}

/** `localhost` and its subdomains never reach the network (RFC 6761), whatever DNS says. */
export function isLocalhostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** An allow-list entry: a host that may use http and resolve to private addresses. */
export interface AllowedHost {
  /** Lowercase name, or an IP in canonical text form. */
  host: string;
  /** Absent: any port. */
  port?: number;
}

export class InvalidAllowHostError extends Error {
  constructor(readonly entry: string) {
    super(`FETCH_ALLOW_HOSTS entry "${entry}" is not host or host:port`);
    this.name = 'InvalidAllowHostError';
  }
}

/** Parses one `host`, `host:port`, `[v6]` or `[v6]:port` entry; throws on anything else. */
export function parseAllowedHost(entry: string): AllowedHost {
  const text = entry.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s]+)(?::(\d{1,5}))?$/.exec(text);
  if (!match) throw new InvalidAllowHostError(entry);
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535)) throw new InvalidAllowHostError(entry);
  if (match[1].startsWith('[') && !parseIpAddress(match[1])) throw new InvalidAllowHostError(entry);
  return { host: hostKey(match[1]), port };
}

/** Whether the URL host (as `URL.hostname` spells it) and port are allow-listed. */
export function isAllowListed(allowed: readonly AllowedHost[], hostname: string, port: number): boolean {
  const key = hostKey(hostname);
  return allowed.some((entry) => entry.host === key && (entry.port === undefined || entry.port === port));
}

function hostKey(host: string): string {
  const ip = parseIpAddress(host);
  if (ip) return Array.from(ip, (b) => b.toString(16).padStart(2, '0')).join('');
  return host.toLowerCase();
}
