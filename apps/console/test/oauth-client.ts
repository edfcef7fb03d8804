import { randomBytes } from 'node:crypto';
import { type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * An MCP client's OAuth state, in memory, as the SDK's `OAuthClientProvider` asks for it: the
 * SDK itself discovers the gateway's and the authorization server's metadata, registers, builds
 * the authorization request (PKCE, resource, state), trades the code and refreshes. The one thing
 * it leaves to the application, sending the person's browser to the authorization URL, is kept
 * here for the test to hand to chromium. Its redirect URI is a loopback address the test
 * listens on, as a local MCP client's is.
 */
export class InMemoryOAuthClient implements OAuthClientProvider {
  /** Every authorization URL the SDK asked the browser to open, oldest first. */
  readonly authorizations: URL[] = [];
  /** The `state` of the latest authorization request. */
  lastState: string | undefined;
  private client: OAuthClientInformationMixed | undefined;
  private stored: OAuthTokens | undefined;
  private verifier: string | undefined;

  constructor(
    private readonly name: string,
    readonly redirectUrl: string,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state(): string {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.client;
  }

  saveClientInformation(information: OAuthClientInformationMixed): void {
    this.client = information;
  }

  tokens(): OAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.stored = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizations.push(url);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (this.verifier === undefined) throw new Error('no authorization was started');
    return this.verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** The latest authorization URL (the one the browser is to open). */
  get authorizationUrl(): URL {
    const url = this.authorizations.at(-1);
    if (!url) throw new Error('the SDK asked for no authorization');
    return url;
  }
}

/** An SDK client and its transport on the gateway, authenticating through `oauth`. */
export function oauthMcpClient(resource: string, oauth: InMemoryOAuthClient) {
  const transport = new StreamableHTTPClientTransport(new URL(resource), { authProvider: oauth });
  const client = new Client({ name: 'cairn-oauth-test', version: '1.0.0' });
  return { client, transport, connect: () => client.connect(transport) };
}

/** The token endpoint's `error` for a refresh with this token (undefined when it is honoured). */
export async function refreshRefusal(
  issuer: string,
  clientId: string,
  refreshToken: string,
): Promise<string | undefined> {
  const response = await fetch(`${issuer}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    }).toString(),
  });
  return ((await response.json()) as { error?: string }).error;
}
