import { hostname, networkInterfaces } from 'node:os';
import { hostnameOf, isLoopbackHost, namesThisMachine, originOf } from './gateway-host';

describe('gateway host and origin helpers', () => {
  it('reads the host name of a Host header, and refuses what is not host[:port]', () => {
    expect(hostnameOf('LocalHost:8081')).toBe('localhost');
    expect(hostnameOf('[::1]:8081')).toBe('[::1]');
    expect(hostnameOf('127.0.0.1')).toBe('127.0.0.1');
    for (const bad of [undefined, '', 'evil.example/path', 'user@localhost', 'localhost:8081?x', 'a b']) {
      expect({ bad, name: hostnameOf(bad) }).toEqual({ bad, name: undefined });
    }
  });

  it('knows loopback names and addresses, not look-alikes', () => {
    for (const name of ['localhost', '127.0.0.1', '127.8.9.10', '[::1]', '::ffff:127.0.0.1']) {
      expect({ name, loopback: isLoopbackHost(name) }).toEqual({ name, loopback: true });
    }
    for (const name of ['localhost.evil.example', '127.0.0.1.nip.io', '10.0.0.1', '[::2]', 'evil.example']) {
      expect({ name, loopback: isLoopbackHost(name) }).toEqual({ name, loopback: false });
    }
  });

  it("names this machine by loopback, its host name and its interfaces' addresses, nothing else", () => {
    expect(namesThisMachine('localhost')).toBe(true);
    expect(namesThisMachine(hostname().toLowerCase())).toBe(true);
    const address = Object.values(networkInterfaces())
      .flat()
      .find((item) => item && item.family === 'IPv4')?.address;
    if (address) expect(namesThisMachine(address)).toBe(true);
    expect(namesThisMachine('evil.example.com')).toBe(false);
    expect(namesThisMachine('203.0.113.7')).toBe(false);
  });

  it('normalizes origins and refuses opaque or non-web ones', () => {
    expect(originOf('HTTP://LocalHost:80')).toBe('http://localhost');
    expect(originOf('https://app.example.com/path')).toBe('https://app.example.com');
    expect(originOf('null')).toBeUndefined();
    expect(originOf('file:///etc/passwd')).toBeUndefined();
  });
});
