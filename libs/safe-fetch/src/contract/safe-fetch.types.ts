/** Why a fetch was refused or failed: the `code` of a {@link SafeFetchError}. */
export const SAFE_FETCH_REASONS = [
  'invalid-url', // not an absolute URL the WHATWG parser accepts (IPv6 zone ids included)
  'scheme', // anything but http: and https:
  'credentials', // user:password@ in the URL
  'host-not-allowed', // on the deny list, or off a non-empty allow list
  'blocked-address', // the host is, or resolves to, an address in a blocked range
  'dns', // the host does not resolve
  'connection', // no TCP/TLS connection, or the connection broke before the answer ended
  'too-many-redirects',
  'too-large',
  'timeout',
] as const;
export type SafeFetchReason = (typeof SAFE_FETCH_REASONS)[number];

/** One address a resolver answered, as `dns.lookup(host, { all: true })` gives it. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/**
 * Resolves a host name to every address it has (A and AAAA). The fetcher checks all of them and
 * connects to the first, so what is checked is what is dialled. Production: the OS resolver;
 * tests inject one they control (DNS rebinding, internal answers).
 */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Injection token of the {@link HostResolver} the fetcher uses. */
export const HOST_RESOLVER = Symbol('HOST_RESOLVER');

/** What one call may reach, and how much of it. Every field has a safe default. */
export interface FetchPolicy {
  /**
   * When non-empty, only these hosts may be fetched (every redirect hop too): `example.com`
   * matches exactly, `*.example.com` matches its subdomains (not `example.com` itself).
   */
  readonly allowHosts?: readonly string[];
  /** Hosts never fetched, in the same forms; the deny list wins over the allow list. */
  readonly denyHosts?: readonly string[];
  /** Body cap in bytes, counted while streaming after decompression; default 2 MiB. */
  readonly maxBytes?: number;
  /** Bound on the whole fetch, redirects included; default 15 s. */
  readonly timeoutMs?: number;
  /** Redirects followed at most; default 5. */
  readonly maxRedirects?: number;
  /**
   * TEST ONLY: CIDRs let through although they lie in a blocked range (e.g. `127.0.0.1/32` for
   * a server the test runs). Never built from a caller's input. Cloud metadata addresses stay
   * blocked whatever this says.
   */
  readonly trustedAddresses?: readonly string[];
}

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_REDIRECTS = 5;

/** A fetched document. */
export interface FetchResult {
  /** The URL that answered, after redirects. */
  readonly finalUrl: string;
  readonly status: number;
  /** The `Content-Type` header as sent (empty when absent). */
  readonly contentType: string;
  /** The body, decompressed. */
  readonly body: Buffer;
  /** Length of `body`. */
  readonly bytes: number;
  /** Every URL redirected to, in order (empty when the first answer was final). */
  readonly redirects: readonly string[];
}
