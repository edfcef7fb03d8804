import { randomBytes } from 'node:crypto';
import { type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  type OAuthClientInformationMixed,
  type OAuthClientMetadata,
  type OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Environment } from '../settings/paths';
import { AuthorizationResponseError, type LoopbackCallback } from './loopback-callback';
import { type OAuthCredentials, type OAuthStore } from './oauth-store';
import { openBrowser } from './open-browser';
import { issuerCheck, metadataIssuerProblem } from './issuer-checks';

/** How long a person has to sign in and consent before the flow gives up. */
const DEFAULT_AUTHORIZATION_TIMEOUT_MS = 5 * 60_000;
/** Only ever a redirect URI in name: the non-interactive bridge never sends anyone to it. */
const NO_REDIRECT = 'http://127.0.0.1/callback';

/** The person must authorize again and this process may not open a browser: the message says what to run. */
export class OAuthLoginRequired extends Error {}
/** The authorization server or its answer cannot be trusted (RFC 8414 §3.3, RFC 9207): nothing more is sent to it. */
export class OAuthServerRefused extends Error {}

export interface CairnOAuthOptions {
  /** True: may open the browser and wait for the person (`cairn login --oauth`, `cairn mcp --oauth`). */
  readonly interactive: boolean;
  /** The redirect URI's server; required when interactive. */
  readonly loopback?: LoopbackCallback;
  readonly env: Environment;
  /** Where the authorization URL is shown (stderr: stdout may carry MCP messages). */
  readonly log: (line: string) => void;
  readonly softwareVersion: string;
  /** An https Client ID Metadata Document URL, used instead of registration where the server takes one. */
  readonly clientMetadataUrl?: string;
  /** Credentials registered by an administrator (servers without dynamic registration). */
  readonly preRegistered?: { readonly client_id: string; readonly client_secret?: string };
  /** Keep what is obtained in the OS keychain (`cairn login --oauth --keychain`). */
  readonly preferKeychain?: boolean;
  readonly authorizationTimeoutMs?: number;
}

/**
 * Cairn's OAuth client for one MCP endpoint, in the shape the MCP SDK's `auth()` and its
 * Streamable HTTP transport drive: the SDK discovers the protected resource and authorization
 * server metadata, registers (or uses a Client ID Metadata Document URL), builds the PKCE
 * authorization request with the RFC 8707 resource, exchanges and refreshes tokens, and binds
 * what it stores to the issuer. This class keeps that state (oauth-store.ts), sends the person to
 * the browser with the loopback redirect, and adds the two checks the SDK (1.32) leaves to the
 * application: the metadata's issuer (RFC 8414 §3.3) and the response's `iss` (RFC 9207).
 */
export class CairnOAuthProvider implements OAuthClientProvider {
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;
  private pendingCode?: Promise<string>;

  private constructor(
    private readonly store: OAuthStore,
    private credentials: OAuthCredentials,
    private readonly options: CairnOAuthOptions,
  ) {}

  static async open(store: OAuthStore, options: CairnOAuthOptions): Promise<CairnOAuthProvider> {
    if (options.interactive && !options.loopback)
      throw new Error('an interactive OAuth flow needs its loopback redirect');
    return new CairnOAuthProvider(store, await store.load(), options);
  }

  get mcpUrl(): string {
    return this.store.mcpUrl;
  }

  get redirectUrl(): string {
    return this.options.loopback?.url ?? NO_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    // application_type native (RFC 8252, OpenID registration): the server then accepts the
    // loopback redirect on whatever port the next authorization listens on.
    const metadata: OAuthClientMetadata & { application_type: 'native' } = {
      client_name: 'Cairn CLI',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      software_id: 'cairn-cli',
      software_version: this.options.softwareVersion,
    };
    return metadata;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const pre = this.options.preRegistered;
    const kept = this.credentials.client;
    if (pre && kept?.client_id !== pre.client_id) return { ...pre };
    return kept;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.credentials = { ...this.credentials, client };
    await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.credentials.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.credentials = { ...this.credentials, tokens: { ...tokens, obtainedAt: Date.now() } };
    await this.persist();
  }

  /** When the kept access token stops working, if the server said (epoch ms). */
  get expiresAt(): number | undefined {
    const tokens = this.credentials.tokens;
    return tokens?.expires_in !== undefined && tokens.obtainedAt !== undefined
      ? tokens.obtainedAt + tokens.expires_in * 1000
      : undefined;
  }

  state(): string {
    return randomBytes(24).toString('base64url');
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE code verifier: the authorization was not started by this process');
    return this.verifier;
  }

  /**
   * Called by `auth()` after every discovery, before anything is sent to the server it found:
   * metadata whose issuer is not the one it was looked up for is refused here (RFC 8414 §3.3),
   * so no registration, authorization or token request goes to a server that names another.
   * The issuer is kept to check the authorization response's `iss` against.
   */
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    const problem = metadataIssuerProblem(state);
    if (problem) throw new OAuthServerRefused(problem);
    this.discovery = state;
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.interactive || !this.options.loopback) {
      throw new OAuthLoginRequired(this.reauthorizationMessage(authorizationUrl));
    }
    const state = authorizationUrl.searchParams.get('state') ?? '';
    const check = issuerCheck(this.discovery?.authorizationServerMetadata);
    const timeout = this.options.authorizationTimeoutMs ?? DEFAULT_AUTHORIZATION_TIMEOUT_MS;
    this.pendingCode = this.options.loopback.waitForCode(state, check, timeout);
    // Handled by whoever awaits authorizationCode(); until then a rejection is not unhandled.
    this.pendingCode.catch(() => undefined);
    this.options.log(
      `Sign in and approve cairn in your browser. If it does not open, open this URL:\n${authorizationUrl.href}`,
    );
    if (!(await openBrowser(authorizationUrl.href, this.options.env))) {
      this.options.log('Could not start a browser: open the URL above by hand.');
    }
  }

  /** The code of the authorization just started (redirectToAuthorization), once the browser brought it back. */
  async authorizationCode(): Promise<string> {
    if (!this.pendingCode) throw new OAuthLoginRequired('no authorization is in progress');
    try {
      return await this.pendingCode;
    } catch (error) {
      if (error instanceof AuthorizationResponseError)
        throw new OAuthServerRefused(`Authorization failed: ${error.message}`);
      throw error;
    } finally {
      this.pendingCode = undefined;
    }
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.verifier = undefined;
      else this.discovery = undefined;
      return;
    }
    const { client, tokens } = this.credentials;
    this.credentials = {
      client: scope === 'tokens' ? client : undefined,
      tokens: scope === 'client' ? tokens : undefined,
    };
    if (scope === 'all') this.verifier = undefined;
    await this.persist();
  }

  /** Drops the kept tokens (not the registration): `cairn login --oauth` always asks anew. */
  async forgetTokens(): Promise<void> {
    await this.invalidateCredentials('tokens');
  }

  private async persist(): Promise<void> {
    await this.store.save(this.credentials, this.options.preferKeychain);
  }

  private reauthorizationMessage(authorizationUrl: URL): string {
    const scope = authorizationUrl.searchParams.get('scope');
    const why = this.credentials.tokens
      ? `the server asks for more access${scope ? ` (scope "${scope}")` : ''} than this authorization has`
      : 'the OAuth authorization is no longer valid (revoked, expired or never completed)';
    return `${why}: run \`cairn login --oauth\` again (or start the bridge with \`cairn mcp --oauth\` to authorize in the browser when needed).`;
  }
}
