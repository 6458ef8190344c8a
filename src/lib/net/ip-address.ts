import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as its network-order bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = Uint8Array;

/**
 * Parses an address as DNS answers, sockets and WHATWG-normalized URL hosts spell it: dotted-quad
 * IPv4 or IPv6 (optionally bracketed, optionally with a zone). Legacy IPv4 notations (octal, hex,
 * shortened) are deliberately not accepted here: URL parsing has already normalized them, and a
 * DNS answer never uses them.
 */
export function parseIpAddress(text: string): IpBytes | null {
  let candidate = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = candidate.indexOf('%');
  if (zone !== -1) candidate = candidate.slice(0, zone);
  if (isIPv4(candidate)) return Uint8Array.from(candidate.split('.').map(Number));
  if (isIPv6(candidate)) return parseIpv6(candidate);
  return null;
}

function parseIpv6(text: string): IpBytes | null {
  const split = text.indexOf('::');
  const head = split === -1 ? text : text.slice(0, split);
  const tail = split === -1 ? '' : text.slice(split + 2);
  const headWords = toWords(head);
  const tailWords = toWords(tail);
  if (!headWords || !tailWords) return null;
  const gap = 8 - headWords.length - tailWords.length;
  if (split === -1 ? gap !== 0 : gap < 0) return null;
  const words = [...headWords, ...new Array<number>(gap).fill(0), ...tailWords];
  const bytes = new Uint8Array(16);
  words.forEach((word, i) => {
    bytes[2 * i] = word >> 8;
    bytes[2 * i + 1] = word & 0xff;
  });
  return bytes;
}

function toWords(groups: string): number[] | null {
  if (groups === '') return [];
  const words: number[] = [];
  for (const group of groups.split(':')) {
    if (group.includes('.')) {
      if (!isIPv4(group)) return null;
      const [a, b, c, d] = group.split('.').map(Number);
      words.push((a << 8) | b, (c << 8) | d);
    } else {
      if (!/^[0-9a-f]{1,4}$/i.test(group)) return null;
      words.push(parseInt(group, 16));
    }
  }
  return words;
}

/** The address in its usual text form: dotted quad, or RFC 5952 compressed IPv6. */
export function formatIpAddress(bytes: IpBytes): string {
  if (bytes.length === 4) return bytes.join('.');
  const words = Array.from({ length: 8 }, (_, i) => (bytes[2 * i] << 8) | bytes[2 * i + 1]);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/** Whether `bytes` lies inside `network`/`prefixLength` (both the same family). */
export function inNetwork(bytes: IpBytes, network: IpBytes, prefixLength: number): boolean {
  if (bytes.length !== network.length) return false;
  const whole = prefixLength >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== network[i]) return false;
  const rest = prefixLength & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole] & mask) === (network[whole] & mask);
}

/** The first address of the `prefixLength`-bit network holding `bytes` (the host bits cleared). */
export function networkOf(bytes: IpBytes, prefixLength: number): IpBytes {
  const network = new Uint8Array(bytes.length);
  const whole = prefixLength >> 3;
  network.set(bytes.subarray(0, whole));
  const rest = prefixLength & 7;
  if (rest !== 0 && whole < bytes.length) network[whole] = bytes[whole] & ((0xff << (8 - rest)) & 0xff);
  return network;
}

/** The same address, comparable across notations: IPv4-mapped IPv6 collapses to its IPv4. */
export function canonicalIp(bytes: IpBytes): string {
  if (bytes.length === 16 && inNetwork(bytes, IPV4_MAPPED, 96)) return formatIpAddress(bytes.subarray(12));
  return formatIpAddress(bytes);
}

const IPV4_MAPPED = Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 0, 0]);
