import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { type StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { OAuthLoginRequired, OAuthServerRefused } from '../oauth/cairn-oauth-provider';

/** The bridge's OAuth client: the provider the SDK's transport drives, and the code of a browser authorization. */
export interface RemoteAuthorization extends OAuthClientProvider {
  /** The code of the authorization the provider just sent the person to; rejects when there is none to be had. */
  authorizationCode(): Promise<string>;
}

/**
 * Authorizations one message may trigger: the first (no or rejected token) and a step-up to the
 * scope a 403 `insufficient_scope` names. A server that keeps refusing after that will not be
 * satisfied by asking the person again (MCP's authorization specification asks clients to bound
 * this), so the third refusal is the answer.
 */
const MAX_AUTHORIZATIONS_PER_MESSAGE = 2;

/**
 * `transport.send` with OAuth: the SDK's transport presents the access token, refreshes it on a
 * 401, and starts a new authorization on a 401 it cannot refresh its way out of or a 403 asking
 * for more scope; a new authorization ends its send with `UnauthorizedError` once the provider
 * has sent the person to the browser. Here the bridge waits for the code the loopback receives,
 * hands it to the transport (`finishAuth`: the token exchange) and sends the message again.
 */
export async function sendAuthorized(
  remote: StreamableHTTPClientTransport,
  message: JSONRPCMessage,
  authorization: RemoteAuthorization | undefined,
): Promise<void> {
  for (let authorizations = 0; ; authorizations += 1) {
    try {
      return await remote.send(message);
    } catch (error) {
      if (!(error instanceof UnauthorizedError) || !authorization || authorizations >= MAX_AUTHORIZATIONS_PER_MESSAGE) {
        throw error;
      }
      await remote.finishAuth(await authorization.authorizationCode());
    }
  }
}

/** An OAuth failure, as the stdio client and its person should read it; undefined for any other error. */
export function describeAuthorizationFailure(error: unknown): string | undefined {
  if (error instanceof OAuthLoginRequired) return `Cairn needs a new authorization: ${error.message}`;
  if (error instanceof OAuthServerRefused) return error.message;
  if (error instanceof UnauthorizedError) {
    return 'The MCP endpoint refused the OAuth authorization; run `cairn login --oauth` again';
  }
  if (error instanceof OAuthError) {
    return `The authorization server refused: ${error.errorCode}${error.message ? ` (${error.message})` : ''}; run \`cairn login --oauth\` again if it persists`;
  }
  return undefined;
}
