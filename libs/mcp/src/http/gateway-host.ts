import { hostname, networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';

/** The lower-cased host name (no port, IPv6 in brackets) of a Host header, or undefined when it is not one. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  try {
    const url = new URL(`http://${hostHeader}`);
    // A Host header is host[:port]: anything that adds a path, user or query is not one.
    return url.host === hostHeader.toLowerCase() || `${url.hostname}:80` === hostHeader.toLowerCase()
      ? url.hostname
      : undefined;
  } catch {
    return undefined;
  }
}

export function isLoopbackHost(name: string): boolean {
  if (name === 'localhost') return true;
  const address = name.replace(/^\[(.*)\]$/, '$1');
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/**
 * Whether a host name certainly names this machine: a loopback name, the machine's host name
 * or one of its interface addresses. Without MCP_PUBLIC_URL only such a Host may name the
 * protected resource; any other would let a request choose what the gateway says it is.
 */
export function namesThisMachine(name: string): boolean {
  if (isLoopbackHost(name) || name === hostname().toLowerCase()) return true;
  const address = name.replace(/^\[(.*)\]$/, '$1');
  if (!ipaddr.isValid(address)) return false;
  const wanted = ipaddr.process(address).toNormalizedString();
  return Object.values(networkInterfaces())
    .flat()
    .some((item) => item !== undefined && ipaddr.process(item.address).toNormalizedString() === wanted);
}

/** `scheme://host[:port]` as browsers write an Origin, or undefined for anything else. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
