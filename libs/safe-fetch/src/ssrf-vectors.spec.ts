import { type ConnectionGuard, guardConnections, type LoopbackServer, startLoopbackServer } from '@cairn/testing';
import {
  type FetchPolicy,
  type HostResolver,
  type ResolvedAddress,
  type SafeFetchReason,
} from './contract/safe-fetch.types';
import { SafeFetchError } from './safe-fetch.exception';
import { SafeFetcher } from './safe-fetcher.service';

/**
 * The SSRF suite (issue 12 §5): every blocked range in every notation, as a literal, as a DNS
 * answer and as a redirect target, plus schemes, credentials, zone ids, a redirect chain too
 * long and a DNS answer that changes between check and connect. Two loopback servers share one
 * port: 127.0.0.1 plays the public host (trusted only by the redirect vectors' policy) and
 * 127.0.0.2 the internal service an attacker wants; a vector counts as blocked only when the
 * fetch failed with the expected reason AND no connection went anywhere it should not. A guard
 * refuses any connection off the machine, so a defect here cannot send a packet to a real
 * private or cloud address. `{P}` in a URL is the servers' port.
 */
interface Vector {
  readonly url: string;
  readonly code: SafeFetchReason;
  /** Uses the policy that trusts 127.0.0.1 (the "public" server) and makes this many requests to it. */
  readonly hops?: number;
}

const V = (url: string, code: SafeFetchReason = 'blocked-address', hops?: number): Vector => ({ url, code, hops });
const PUBLIC = 'http://public.test:{P}';
/** A URL of the public host answering 302 (or `status`) to `target`. */
const redirect = (target: string, code: SafeFetchReason = 'blocked-address', status = 302) =>
  V(`${PUBLIC}/redirect?status=${status}&to=${encodeURIComponent(target)}`, code, 1);

const VECTORS: Record<string, Vector> = {
  // Loopback, in every notation the WHATWG parser (and so Node's client) accepts.
  'loopback dotted': V('http://127.0.0.1:{P}/'),
  'loopback other address': V('http://127.0.0.2:{P}/'),
  'loopback decimal': V('http://2130706433:{P}/'),
  'loopback decimal .2': V('http://2130706434:{P}/'),
  'loopback octal': V('http://0177.0.0.1:{P}/'),
  'loopback octal parts': V('http://0177.0.0.02:{P}/'),
  'loopback octal whole': V('http://017700000001:{P}/'),
  'loopback zero-padded': V('http://127.000.000.001:{P}/'),
  'loopback hex first part': V('http://0x7f.0.0.1:{P}/'),
  'loopback hex whole': V('http://0x7f000001:{P}/'),
  'loopback hex parts': V('http://0x7F.0x00.0x00.0x02:{P}/'),
  'loopback short 127.1': V('http://127.1:{P}/'),
  'loopback short 127.0.2': V('http://127.0.2:{P}/'),
  'loopback trailing dot': V('http://127.0.0.1.:{P}/'),
  'loopback percent-encoded': V('http://%31%32%37.0.0.1:{P}/'),
  'loopback full-width digits': V('http://１２７.０.０.１:{P}/'),
  'loopback circled digits': V('http://①②⑦.⓪.⓪.①:{P}/'),
  'loopback IPv6': V('http://[::1]:{P}/'),
  'loopback IPv6 long form': V('http://[0:0:0:0:0:0:0:1]:{P}/'),
  'loopback IPv4-mapped dotted': V('http://[::ffff:127.0.0.1]:{P}/'),
  'loopback IPv4-mapped hex': V('http://[::ffff:7f00:2]:{P}/'),
  'loopback IPv4-compatible': V('http://[::127.0.0.1]:{P}/'),
  'loopback 6to4': V('http://[2002:7f00:1::]:{P}/'),
  'loopback NAT64': V('http://[64:ff9b::7f00:1]:{P}/'),
  'unspecified 0': V('http://0:{P}/'),
  'unspecified 0.0.0.0': V('http://0.0.0.0:{P}/'),
  'unspecified 0/8': V('http://0.1.2.3/'),
  'unspecified IPv6': V('http://[::]:{P}/'),
  // Private (RFC 1918).
  'private 10/8': V('http://10.0.0.1/'),
  'private 10/8 top': V('http://10.255.255.255/'),
  'private 10/8 octal': V('http://012.0.0.1/'),
  'private 10/8 hex': V('http://0xa.0.0.1/'),
  'private 10/8 decimal': V('http://167772161/'),
  'private 172.16/12': V('http://172.16.0.1/'),
  'private 172.16/12 top': V('http://172.31.255.254/'),
  'private 172.16/12 hex': V('http://0xac100001/'),
  'private 192.168/16': V('http://192.168.0.1/'),
  'private 192.168/16 short': V('http://192.168.1/'),
  'private 192.168/16 decimal': V('http://3232235521/'),
  'private IPv4-mapped 192.168': V('http://[::ffff:192.168.0.1]/'),
  'private IPv4-mapped 10': V('http://[::ffff:a00:1]/'),
  'private 6to4': V('http://[2002:c0a8:1::1]/'),
  'private NAT64 local-use': V('http://[64:ff9b:1::a00:1]/'),
  // Link-local, carrier-grade NAT.
  'link-local 169.254/16': V('http://169.254.0.1/'),
  'link-local IPv6': V('http://[fe80::1]/'),
  'link-local IPv6 top of fe80::/10': V('http://[febf::1]/'),
  'CGNAT 100.64/10': V('http://100.64.0.1/'),
  'CGNAT top': V('http://100.127.255.254/'),
  // Cloud metadata.
  'metadata 169.254.169.254': V('http://169.254.169.254/latest/meta-data/'),
  'metadata decimal': V('http://2852039166/'),
  'metadata hex': V('http://0xa9.0xfe.0xa9.0xfe/'),
  'metadata octal': V('http://0251.0376.0251.0376/'),
  'metadata short': V('http://169.254.43518/'),
  'metadata IPv4-mapped': V('http://[::ffff:169.254.169.254]/'),
  'metadata 6to4': V('http://[2002:a9fe:a9fe::]/'),
  'metadata NAT64': V('http://[64:ff9b::a9fe:a9fe]/'),
  'metadata AWS IPv6': V('http://[fd00:ec2::254]/'),
  'metadata Azure wire server': V('http://168.63.129.16/'),
  'metadata Azure IPv4-mapped': V('http://[::ffff:a83f:8110]/'),
  // Multicast, broadcast, reserved, benchmarking, documentation.
  'multicast 224/4': V('http://224.0.0.1/'),
  'multicast SSDP': V('http://239.255.255.250/'),
  'multicast IPv6': V('http://[ff02::1]/'),
  broadcast: V('http://255.255.255.255/'),
  'broadcast decimal': V('http://4294967295/'),
  'reserved 240/4': V('http://240.0.0.1/'),
  'documentation TEST-NET-1': V('http://192.0.2.1/'),
  'benchmarking 198.18/15': V('http://198.18.0.1/'),
  'benchmarking IPv6': V('http://[2001:2::1]/'),
  'documentation IPv6': V('http://[2001:db8::1]/'),
  // IPv6 unique-local, site-local, Teredo.
  'unique-local fc00::/7': V('http://[fc00::1]/'),
  'unique-local fd': V('http://[fd12:3456:789a::1]/'),
  'site-local fec0::/10': V('http://[fec0::1]/'),
  'Teredo 2001::/32': V('http://[2001::1]/'),
  'Teredo full': V('http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/'),
  // Names whose DNS answers are internal (the test's resolver answers; see RESOLVER).
  'DNS loopback': V('http://loopback.test:{P}/'),
  'DNS localhost (A and AAAA)': V('http://localhost:{P}/'),
  'DNS 127.0.0.1.nip.io style': V('http://127.0.0.1.nip.test:{P}/'),
  'DNS private': V('http://private.test/'),
  'DNS metadata': V('http://metadata.test/computeMetadata/v1/'),
  'DNS Azure wire server': V('http://wire.test/'),
  'DNS Alibaba metadata (CGNAT)': V('http://alibaba.test/'),
  'DNS unique-local AAAA': V('http://ula.test/'),
  'DNS IPv4-mapped AAAA': V('http://mapped.test/'),
  'DNS NAT64 AAAA': V('http://nat64.test/'),
  'DNS one public answer, one private': V('http://mixed.test:{P}/', 'blocked-address', 0),
  'DNS one public answer, one link-local AAAA': V('http://mixed6.test:{P}/', 'blocked-address', 0),
  'DNS no such name': V('http://nxdomain.test/', 'dns'),
  'DNS empty answer': V('http://empty.test/', 'dns'),
  'DNS answer that is not an address': V('http://garbage.test/', 'dns'),
  // Schemes other than http(s).
  'scheme ftp': V('ftp://127.0.0.1/', 'scheme'),
  'scheme file': V('file:///etc/passwd', 'scheme'),
  'scheme gopher (Redis smuggling)': V('gopher://127.0.0.1:6379/_INFO', 'scheme'),
  'scheme data': V('data:text/plain,hello', 'scheme'),
  'scheme dict': V('dict://127.0.0.1:11211/stats', 'scheme'),
  'scheme javascript': V('javascript:alert(1)', 'scheme'),
  'scheme ws': V('ws://127.0.0.1:{P}/', 'scheme'),
  'scheme ldap': V('ldap://127.0.0.1/', 'scheme'),
  // Credentials in the URL (to the trusted host, so only the credentials can refuse it).
  'userinfo user:password': { ...V(`http://user:secret@public.test:{P}/ok`, 'credentials'), hops: 0 },
  'userinfo user only': { ...V(`http://user@public.test:{P}/ok`, 'credentials'), hops: 0 },
  'userinfo password only': { ...V(`http://:secret@public.test:{P}/ok`, 'credentials'), hops: 0 },
  'userinfo looking like the host': V('http://public.test:{P}@127.0.0.2:{P}/', 'credentials'),
  // IPv6 zone ids, and hosts the URL parser refuses.
  'zone id encoded': V('http://[fe80::1%25eth0]/', 'invalid-url'),
  'zone id raw': V('http://[fe80::1%eth0]/', 'invalid-url'),
  'zone id on loopback': V('http://[::1%25lo]:{P}/', 'invalid-url'),
  'five-part IPv4': V('http://127.0.0.1.1:{P}/', 'invalid-url'),
  'octet over 255': V('http://256.0.0.1/', 'invalid-url'),
  // Redirects from the allowed host to internal targets, each hop re-checked.
  'redirect to loopback': redirect('http://127.0.0.2:{P}/'),
  'redirect to loopback decimal': redirect('http://2130706434:{P}/'),
  'redirect to loopback hex': redirect('http://0x7f000002:{P}/'),
  'redirect to IPv6 loopback': redirect('http://[::1]:{P}/'),
  'redirect to IPv4-mapped loopback': redirect('http://[::ffff:127.0.0.2]:{P}/'),
  'redirect protocol-relative': redirect('//127.0.0.2:{P}/'),
  'redirect to metadata (307)': redirect('http://169.254.169.254/latest/meta-data/', 'blocked-address', 307),
  'redirect to metadata by name (308)': redirect('http://metadata.test/', 'blocked-address', 308),
  'redirect to private by name (303)': redirect('http://private.test/', 'blocked-address', 303),
  'redirect to localhost (301)': redirect('http://localhost:{P}/', 'blocked-address', 301),
  'redirect to file': redirect('file:///etc/passwd', 'scheme'),
  'redirect to gopher': redirect('gopher://127.0.0.2:{P}/_x', 'scheme'),
  'redirect to credentials': redirect('http://user:secret@public.test:{P}/ok', 'credentials'),
  'redirect to a zone id': redirect('http://[fe80::1%25eth0]/', 'invalid-url'),
  // The same name answers the public address for the first hop and an internal one for the next.
  'redirect to the same name, rebound for the second hop': V(
    `http://rebind-hop.test:{P}/redirect?to=${encodeURIComponent('/ok')}`,
    'blocked-address',
    1,
  ),
  'redirect chain of 6': V(`${PUBLIC}/chain?n=6`, 'too-many-redirects', 6),
};

const address = (text: string): ResolvedAddress => ({ address: text, family: text.includes(':') ? 6 : 4 });

describe('SSRF vectors', () => {
  let publicServer: LoopbackServer;
  let internalServer: LoopbackServer;
  let guard: ConnectionGuard;
  const resolverCalls: string[] = [];
  /** Host name → answer per call (the last one repeats). */
  const RESOLVER: Record<string, string[][]> = {
    'public.test': [['127.0.0.1']],
    'loopback.test': [['127.0.0.1']],
    localhost: [['127.0.0.1', '::1']],
    '127.0.0.1.nip.test': [['127.0.0.1']],
    'private.test': [['10.0.0.5']],
    'metadata.test': [['169.254.169.254']],
    'wire.test': [['168.63.129.16']],
    'alibaba.test': [['100.100.100.200']],
    'ula.test': [['fd00::5']],
    'mapped.test': [['::ffff:127.0.0.1']],
    'nat64.test': [['64:ff9b::a00:1']],
    'mixed.test': [['127.0.0.1', '10.0.0.1']],
    'mixed6.test': [['127.0.0.1', 'fe80::1']],
    'empty.test': [[]],
    'garbage.test': [['not-an-address']],
    'rebind.test': [['127.0.0.1'], ['127.0.0.2']],
    'rebind-hop.test': [['127.0.0.1'], ['127.0.0.2']],
  };
  const resolver: HostResolver = (hostname) => {
    resolverCalls.push(hostname);
    const calls = resolverCalls.filter((name) => name === hostname).length;
    const answers = RESOLVER[hostname];
    if (!answers)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(answers[Math.min(calls, answers.length) - 1].map(address));
  };
  const fetcher = new SafeFetcher(resolver);
  const trusting: FetchPolicy = { trustedAddresses: ['127.0.0.1'] };
  const outcomes = new Map<string, string>();

  beforeAll(async () => {
    publicServer = await startLoopbackServer('127.0.0.1');
    internalServer = await startLoopbackServer('127.0.0.2', publicServer.port);
    publicServer.route('/ok', (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end('public'),
    );
    internalServer.route('/ok', (_request, response) => response.writeHead(200).end('INTERNAL SECRET'));
    publicServer.route('/redirect', (_request, response, url) => {
      const to = (url.searchParams.get('to') ?? '/').replaceAll('{P}', String(publicServer.port));
      response.writeHead(Number(url.searchParams.get('status') ?? 302), { location: to }).end();
    });
    publicServer.route('/chain', (_request, response, url) => {
      const left = Number(url.searchParams.get('n'));
      if (left > 0) response.writeHead(302, { location: `/chain?n=${left - 1}` }).end();
      else response.writeHead(200).end('end of chain');
    });
    guard = guardConnections();
  });
  afterAll(async () => {
    guard?.restore();
    await Promise.all([publicServer?.close(), internalServer?.close()]);
  });

  it.each(Object.entries(VECTORS))('%s', async (name, vector) => {
    const url = vector.url.replaceAll('{P}', String(publicServer.port));
    const before = { public: publicServer.requests.length, attempts: guard.attempts.length };
    const internalBefore = internalServer.requests.length;
    const outcome = await guard
      .tagged(name, () => fetcher.fetch(url, vector.hops === undefined ? {} : trusting))
      .then(
        (result) => `fetched ${result.finalUrl}`,
        (error: unknown) => (error instanceof SafeFetchError ? error.code : `unexpected ${String(error)}`),
      );
    const hops = vector.hops ?? 0;
    // This fetch's connections only: a client another test file left open in this jest worker may connect too.
    const connections = guard.attempts
      .slice(before.attempts)
      .filter((attempt) => attempt.tag === name)
      .map((attempt) => attempt.address);
    const strays = connections.filter((target, index) => index >= hops || target !== '127.0.0.1');
    const internalHits = internalServer.requests.length - internalBefore;
    const verdict =
      outcome !== vector.code
        ? outcome
        : strays.length || internalHits
          ? `connected to ${strays.join(', ')}`
          : publicServer.requests.length - before.public !== hops
            ? 'wrong hop count'
            : 'blocked';
    outcomes.set(name, verdict);
    expect({ outcome, connections, internalHits }).toEqual({
      outcome: vector.code,
      connections: Array<string>(hops).fill('127.0.0.1'),
      internalHits: 0,
    });
  });

  it('connects to the address it checked when the DNS answer changes between check and connect', async () => {
    const url = `http://rebind.test:${publicServer.port}/ok`;
    const before = { public: publicServer.requests.length, internal: internalServer.requests.length };
    const result = await fetcher.fetch(url, trusting);
    // The second answer (127.0.0.2, the internal service) was never asked for, let alone used.
    const defeated =
      result.body.toString() === 'public' &&
      internalServer.requests.length === before.internal &&
      resolverCalls.filter((name) => name === 'rebind.test').length === 1;
    outcomes.set(
      'DNS rebinding between check and connect',
      defeated ? 'blocked' : 'rebinding reached the internal address',
    );
    expect(result.body.toString()).toBe('public');
    expect(publicServer.requests.at(-1)).toEqual({ path: '/ok', host: `rebind.test:${publicServer.port}` });
    expect(internalServer.requests.length).toBe(before.internal);
    expect(resolverCalls.filter((name) => name === 'rebind.test')).toHaveLength(1);
  });

  it('blocks every vector, and prints the tally', () => {
    const blocked = [...outcomes.values()].filter((verdict) => verdict === 'blocked').length;
    const missed = [...outcomes].filter(([, verdict]) => verdict !== 'blocked');
    console.log(
      [
        `SSRF vectors: ${blocked} blocked of ${outcomes.size}`,
        ...missed.map(([name, verdict]) => `  NOT BLOCKED ${name}: ${verdict}`),
      ].join('\n'),
    );
    expect(outcomes.size).toBeGreaterThanOrEqual(80);
    expect(missed).toEqual([]);
    expect(internalServer.requests).toEqual([]);
  });
});
