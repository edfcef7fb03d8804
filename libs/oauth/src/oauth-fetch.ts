import { type FetchPolicy, SafeFetchError, type SafeFetcher } from '@cairn/safe-fetch';

/** A client's metadata document is small; anything bigger is not one. */
const MAX_BYTES = 64 * 1024;
const TIMEOUT_MS = 5_000;

/**
 * What oidc-provider fetches with (a client's metadata document at its https client_id; a
 * client's jwks_uri): Cairn's SSRF-safe fetcher instead of the global fetch, so the host is
 * resolved and every address checked against the blocked ranges before a connection is made
 * (oidc-provider's own guard depends on undici internals and can silently switch itself off),
 * no redirect is followed (a metadata document must be served at its URL), and the body is capped.
 */
export function oauthFetch(fetcher: SafeFetcher, trustedAddresses?: readonly string[]) {
  return async (url: URL | string, options: RequestInit = {}): Promise<Response> => {
    const method = (options.method ?? 'GET').toUpperCase();
    if (method !== 'GET') throw new TypeError(`the authorization server fetches with GET only, not ${method}`);
    const policy: FetchPolicy = {
      maxBytes: MAX_BYTES,
      timeoutMs: TIMEOUT_MS,
      maxRedirects: 0,
      ...(trustedAddresses ? { trustedAddresses } : {}),
    };
    try {
      const result = await fetcher.fetch(String(url), policy);
      return new Response(new Uint8Array(result.body), {
        status: result.status,
        headers: result.contentType ? { 'content-type': result.contentType } : {},
      });
    } catch (error) {
      // oidc-provider answers invalid_client ("fetch failed") with this as the cause.
      if (error instanceof SafeFetchError) throw new TypeError(`fetch refused: ${error.message}`, { cause: error });
      throw error;
    }
  };
}
