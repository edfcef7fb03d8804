import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Cidr = [Address, number];

/**
 * Cloud instance-metadata endpoints, blocked before anything else and never trustable: the
 * AWS/GCP/Azure/OpenStack link-local endpoint, Azure's wire server (a public address, so no
 * range rule catches it) and AWS's IPv6 endpoint on Nitro instances.
 */
const CLOUD_METADATA: readonly Cidr[] = ['169.254.169.254/32', '168.63.129.16/32', 'fd00:ec2::254/128'].map((cidr) =>
  ipaddr.parseCIDR(cidr),
);

/**
 * The one IPv6 range ipaddr.js does not name: IPv4-compatible addresses (`::a.b.c.d`, deprecated
 * by RFC 4291 §2.5.5.1). ipaddr.js calls them unicast, yet some stacks still tunnel them to the
 * embedded IPv4 address, so they are refused outright.
 */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** ipaddr.js's range names as error messages and docs spell them. */
const RANGE_NAMES: Readonly<Record<string, string>> = {
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade-nat',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'ipv4-mapped',
  deprecatedSiteLocal: 'site-local',
  rfc6052: 'nat64',
  rfc6145: 'ipv4-translated',
};
const rangeName = (range: string) => RANGE_NAMES[range] ?? range;

/** Parses an address as a resolver answers it; null when it is not one. */
export function parseAddress(text: string): Address | null {
  return ipaddr.isValid(text) ? ipaddr.parse(text) : null;
}

/** Parses test-only trusted CIDRs (a bare address means just that address). */
export function parseTrusted(cidrs: readonly string[] = []): Cidr[] {
  return cidrs.map((cidr) => {
    if (cidr.includes('/')) return ipaddr.parseCIDR(cidr);
    const address = ipaddr.parse(cidr);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  });
}

const within = (address: Address, cidrs: readonly Cidr[]) =>
  cidrs.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));

/**
 * The blocked range an address lies in (`loopback`, `private`, `cloud-metadata`, `6to4 → loopback`…),
 * or null when a public fetch may connect to it. Every range ipaddr.js knows other than plain
 * `unicast` is blocked: private, loopback, link-local, carrier-grade NAT, multicast, broadcast,
 * reserved (documentation, benchmarking, 240/4), unspecified, unique-local, site-local, Teredo,
 * NAT64, discard, ORCHID, AMT, AS112… IPv4-mapped and 6to4 addresses carry an IPv4 address that
 * is what the packets finally reach, so that address decides, checked by the same rules.
 */
export function blockedRange(address: Address, trusted: readonly Cidr[] = []): string | null {
  if (within(address, CLOUD_METADATA)) return 'cloud-metadata';
  if (within(address, trusted)) return null;
  if (address.kind() === 'ipv4') {
    const range = address.range();
    return range === 'unicast' ? null : rangeName(range);
  }
  const ipv6 = address as ipaddr.IPv6;
  const range = ipv6.range();
  if (range === 'ipv4Mapped' || range === '6to4') {
    const embedded = embeddedIPv4(ipv6);
    const inner = blockedRange(embedded, trusted);
    return inner === null ? null : `${rangeName(range)} → ${inner}`;
  }
  if (range !== 'unicast') return rangeName(range);
  return within(ipv6, [IPV4_COMPATIBLE]) ? 'ipv4-compatible' : null;
}

/** The IPv4 address an IPv4-mapped (last 32 bits) or 6to4 (bits 16-47) address embeds. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const [, high, low] = address.parts;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}
