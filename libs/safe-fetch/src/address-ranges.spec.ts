import { blockedRange, parseAddress, parseTrusted } from './address-ranges';

const rangeOf = (text: string, trusted: string[] = []) => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return blockedRange(address, parseTrusted(trusted));
};

describe('blockedRange', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.1.1', 'link-local'],
    ['100.64.0.1', 'carrier-grade-nat'],
    ['100.127.255.255', 'carrier-grade-nat'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.10', 'reserved'], // TEST-NET-1
    ['198.18.0.1', 'reserved'], // benchmarking, RFC 2544
    ['169.254.169.254', 'cloud-metadata'],
    ['168.63.129.16', 'cloud-metadata'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'ipv4-mapped → loopback'],
    ['::ffff:a9fe:a9fe', 'ipv4-mapped → cloud-metadata'],
    ['::ffff:10.0.0.1', 'ipv4-mapped → private'],
    ['2002:7f00:1::', '6to4 → loopback'],
    ['2002:a00:1::1', '6to4 → private'],
    ['2002:a9fe:a9fe::', '6to4 → cloud-metadata'],
    ['2001::1', 'teredo'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['64:ff9b::7f00:1', 'nat64'],
    ['64:ff9b::808:808', 'nat64'],
    ['64:ff9b:1::a00:1', 'nat64'],
    ['2001:2::1', 'benchmarking'],
    ['2001:db8::1', 'reserved'],
    ['::7f00:1', 'ipv4-compatible'],
    ['100::1', 'discard'],
  ])('blocks %s (%s)', (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.32.0.1', // just past 172.16/12
    '100.128.0.1', // just past 100.64/10
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8', // mapped: the embedded public address decides
    '2002:808:808::1', // 6to4 of a public address
  ])('lets the public address %s through', (address) => {
    expect(rangeOf(address)).toBeNull();
  });

  it('lets a test trust exactly the addresses it names, never cloud metadata', () => {
    expect(rangeOf('127.0.0.1', ['127.0.0.1'])).toBeNull();
    expect(rangeOf('::ffff:127.0.0.1', ['127.0.0.1'])).toBeNull();
    expect(rangeOf('127.0.0.2', ['127.0.0.1'])).toBe('loopback');
    expect(rangeOf('10.0.0.1', ['127.0.0.0/8'])).toBe('private');
    expect(rangeOf('169.254.169.254', ['169.254.0.0/16'])).toBe('cloud-metadata');
  });

  it('refuses text that is no address', () => {
    expect(parseAddress('localhost')).toBeNull();
    expect(parseAddress('999.1.1.1')).toBeNull();
  });
});
