import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import { type FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { type CairnOAuthProvider } from './cairn-oauth-provider';

/** What the MCP endpoint's challenge says (RFC 9728 §5.1, MCP's scope selection). */
export interface Challenge {
  readonly resourceMetadataUrl?: URL;
  readonly scope?: string;
}

/**
 * Asks the MCP endpoint, without a token, what it wants: a 401 names the protected resource
 * metadata and, often, the scope to ask for, which the SDK's scope selection puts first. The
 * request is the `initialize` an MCP client sends first; a server that answers it without a
 * token (some ask only for later calls) gives no challenge, and discovery starts from the
 * well-known locations instead.
 */
export async function probeChallenge(mcpUrl: URL, fetchFn: FetchLike = fetch): Promise<Challenge> {
  const response = await fetchFn(mcpUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'cairn-login', version: '0' },
      },
    }),
    signal: AbortSignal.timeout(15_000),
  });
  await response.body?.cancel();
  if (response.status !== 401) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { resourceMetadataUrl, scope };
}

/**
 * The whole authorization code flow through the SDK's `auth()`: discovery, registration (or
 * the Client ID Metadata Document, or pre-registered credentials), the PKCE request with the
 * RFC 8707 resource, which sends the person to the browser; then, with the code the loopback
 * received, the token exchange. Kept tokens that can still be refreshed are refreshed instead,
 * unless the caller dropped them first.
 */
export async function authorizeInteractively(
  provider: CairnOAuthProvider,
  mcpUrl: URL,
  challenge: Challenge,
  fetchFn?: FetchLike,
): Promise<void> {
  const options = {
    serverUrl: mcpUrl,
    scope: challenge.scope,
    resourceMetadataUrl: challenge.resourceMetadataUrl,
    fetchFn,
  };
  let result = await auth(provider, options);
  if (result === 'REDIRECT') {
    const authorizationCode = await provider.authorizationCode();
    result = await auth(provider, { ...options, authorizationCode });
  }
  if (result !== 'AUTHORIZED') throw new Error(`the authorization did not complete (${result})`);
}
