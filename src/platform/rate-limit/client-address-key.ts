import { canonicalIp, formatIpAddress, networkOf, parseIpAddress } from '../../lib/net/ip-address';

/**
 * Who a per-address limit counts a client as. An IPv4 address is scarce, so it is one client; an
 * IPv6 host is usually handed a whole /64 (SLAAC, privacy addresses, a cloud VM's routed prefix)
 * and may take a fresh address for every request, so its network of `ipv6PrefixBits` is the
 * client (RATE_LIMIT_IPV6_PREFIX). IPv4-mapped IPv6 (`::ffff:1.2.3.4`, what a dual-stack socket
 * reports) is the IPv4 client it maps. Zone ids and notation (compressed, uppercase, embedded
 * dotted quad) make no difference. A value that is no address (a proxy's odd X-Forwarded-For) is
 * counted as itself, as before; none at all is `unknown`.
 */
export function clientAddressKey(address: string | null | undefined, ipv6PrefixBits: number): string {
  if (!address) return 'unknown';
  const bytes = parseIpAddress(address);
  if (!bytes) return address;
  const canonical = canonicalIp(bytes);
  // canonicalIp spells IPv4 and IPv4-mapped alike as a dotted quad: those are counted alone.
  if (!canonical.includes(':')) return canonical;
  return `${formatIpAddress(networkOf(bytes, ipv6PrefixBits))}/${ipv6PrefixBits}`;
}
