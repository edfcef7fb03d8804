import { isIP } from 'node:net';
import { type FetchPolicy } from './contract/safe-fetch.types';
import { SafeFetchError } from './safe-fetch.exception';

/**
 * A URL as the WHATWG parser reads it (what Node's http client and every browser use), relative
 * to `base` for a redirect's Location. The parser is what turns `2130706433`, `0177.0.0.1`,
 * `0x7f.0.0.1` and `127.1` into `127.0.0.1`, and refuses IPv6 zone ids, so every later check
 * sees the one canonical host the connection would use.
 */
export function parseUrl(raw: string, base?: URL): URL {
  try {
    return new URL(raw, base);
  } catch {
    throw new SafeFetchError('invalid-url', 'The URL is not a valid absolute http(s) URL');
  }
}

/** The host of a URL, and the IP literal it is when it is one (brackets removed). */
export interface UrlHost {
  /** `url.hostname` without a trailing dot, brackets kept: what host lists compare. */
  readonly host: string;
  /** The IP address when the host is a literal, else null (a name to resolve). */
  readonly literal: string | null;
}

/**
 * The checks a URL passes before any name is resolved, at the first hop and at every redirect:
 * scheme, credentials, then the caller's deny and allow lists.
 */
export function checkUrl(url: URL, policy: FetchPolicy): UrlHost {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('scheme', 'Only http and https URLs can be fetched');
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('credentials', 'URLs with credentials (user:password@) are refused');
  }
  const host = withoutTrailingDot(url.hostname);
  const unbracketed = host.startsWith('[') ? host.slice(1, -1) : host;
  if (matchesAny(host, policy.denyHosts)) {
    throw new SafeFetchError('host-not-allowed', 'The host is on the deny list');
  }
  if (policy.allowHosts?.length && !matchesAny(host, policy.allowHosts)) {
    throw new SafeFetchError('host-not-allowed', 'The host is not on the allow list');
  }
  return { host, literal: isIP(unbracketed) ? unbracketed : null };
}

/**
 * Whether a host matches a list entry: `example.com` exactly, `*.example.com` any subdomain of
 * it. Entries are canonicalised by the same URL parser as hosts (case, IDN to punycode, IP
 * notations), so `EXAMPLE.com`, `bücher.de` and `[::1]` match as a person would expect.
 */
function matchesAny(host: string, entries: readonly string[] = []): boolean {
  return entries.some((entry) => {
    const wildcard = entry.startsWith('*.');
    const canonical = canonicalHost(wildcard ? entry.slice(2) : entry);
    if (canonical === null) return false;
    return wildcard ? host.endsWith(`.${canonical}`) : host === canonical;
  });
}

function canonicalHost(entry: string): string | null {
  try {
    return withoutTrailingDot(new URL(`http://${entry.trim()}/`).hostname);
  } catch {
    return null;
  }
}

const withoutTrailingDot = (host: string) => (host.endsWith('.') ? host.slice(0, -1) : host);
