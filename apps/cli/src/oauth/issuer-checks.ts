import { type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { type ResponseCheck } from './loopback-callback';

/**
 * RFC 8414 §3.3: the `issuer` of authorization server metadata must be identical to the issuer
 * identifier the metadata was looked up for, or the metadata must not be used (a server that
 * names another would collect codes and credentials meant for it). The identifier is the one
 * the protected resource metadata named. Compared as strings, without normalisation. Without
 * protected resource metadata the SDK falls back to the MCP server's origin, written with a
 * trailing slash that a server's own `issuer` does not carry: there the slash alone may differ.
 * Answers the problem, or undefined.
 */
export function metadataIssuerProblem(state: OAuthDiscoveryState): string | undefined {
  const issuer = state.authorizationServerMetadata?.issuer;
  if (issuer === undefined) return undefined; // no metadata at all: the SDK's legacy endpoints
  const expected = state.authorizationServerUrl;
  if (issuer === expected) return undefined;
  if (!state.resourceMetadata && `${issuer}/` === expected) return undefined;
  return `the authorization server's metadata names issuer ${issuer}, not ${expected} where it was looked up (RFC 8414 §3.3); refusing to use it`;
}

/**
 * RFC 9207 for the authorization response, as the MCP authorization specification asks: when
 * the server says it sends `iss`, the response must carry it; whenever it carries one, it must
 * be exactly the recorded issuer (a plain string comparison: a trailing slash is a different
 * issuer). This is what stops a mix-up attack, where another server's code is slipped in.
 */
export function issuerCheck(metadata: OAuthDiscoveryState['authorizationServerMetadata']): ResponseCheck {
  return (params) => {
    const iss = params.get('iss');
    const expected = metadata?.issuer;
    if (iss === null) {
      // RFC 8414 metadata keeps the field (the SDK's schema is loose); OpenID discovery metadata
      // passes through a schema that drops it, so there only a present `iss` is checked.
      const announced = (metadata as { authorization_response_iss_parameter_supported?: unknown } | undefined)
        ?.authorization_response_iss_parameter_supported;
      return announced === true
        ? 'the authorization server announces RFC 9207 `iss` but its answer has none'
        : undefined;
    }
    if (expected === undefined) return `the answer names issuer ${iss}, but no issuer was recorded to compare it with`;
    return iss === expected ? undefined : `the answer comes from issuer ${iss}, not ${expected}`;
  };
}
