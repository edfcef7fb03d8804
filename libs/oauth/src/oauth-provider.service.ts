import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { SafeFetcher } from '@cairn/safe-fetch';
import Provider, { type ClientMetadata, type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import { oauthAdapterClass } from './oauth-adapter';
import { oauthFetch } from './oauth-fetch';
import { OAuthGrants } from './oauth-grants.service';
import { cookieKeyOf, signingKeyOf } from './oauth-keys';
import { OAuthRecordsRepository } from './oauth-records.repository';
import { renderOAuthError } from './oauth-error-page';

/** The one resource scope: acting on the MCP gateway as the grant allows (the gateway advertises it). */
export const MCP_SCOPE = 'mcp' satisfies CairnConfig['oauth']['scope'];
/** Where oidc-provider's endpoints live on the api (the issuer is its bare origin). */
export const OAUTH_PATH = '/oauth';
/** TEST ONLY: address ranges the provider's fetches may reach although they are blocked (a loopback server). */
export const OAUTH_FETCH_TRUSTED_ADDRESSES = Symbol('OAUTH_FETCH_TRUSTED_ADDRESSES');
/** The consent page's entry: the api's interactions route, which sends the browser to the console. */
export const INTERACTIONS_PATH = '/v1/oauth/interactions';

const ROUTES = {
  authorization: `${OAUTH_PATH}/authorize`,
  token: `${OAUTH_PATH}/token`,
  registration: `${OAUTH_PATH}/register`,
  revocation: `${OAUTH_PATH}/revoke`,
  introspection: `${OAUTH_PATH}/introspect`,
  jwks: `${OAUTH_PATH}/jwks`,
  end_session: `${OAUTH_PATH}/logout`,
  userinfo: `${OAUTH_PATH}/userinfo`,
  pushed_authorization_request: `${OAUTH_PATH}/par`,
  backchannel_authentication: `${OAUTH_PATH}/backchannel`,
  code_verification: `${OAUTH_PATH}/device`,
  device_authorization: `${OAUTH_PATH}/device/auth`,
  challenge: `${OAUTH_PATH}/challenge`,
  credential: `${OAUTH_PATH}/credential`,
};

/** extraClientMetadata's validator: drops MCP_SCOPE from the client's `scope` (and the property, when nothing is left). */
function withoutResourceScope(_ctx: unknown, key: string, value: unknown, metadata: ClientMetadata): void {
  if (key !== 'scope' || typeof value !== 'string') return;
  const kept = value.split(' ').filter((scope) => scope !== '' && scope !== MCP_SCOPE);
  if (kept.length > 0) metadata.scope = kept.join(' ');
  else delete metadata.scope;
}

/**
 * Cairn's authorization server: oidc-provider (an OpenID Certified implementation), configured
 * for what the MCP authorization specification asks of one and nothing more:
 * - authorization code with PKCE (S256 is all oidc-provider implements) required of every client;
 * - RFC 8707 resource indicators: the gateway's `<MCP_PUBLIC_URL>/mcp` is the only resource, the
 *   default one, and the audience of every access token; any other is `invalid_target`;
 * - clients by Client ID Metadata Document (an https `client_id`, fetched by oidc-provider with its
 *   own guard against special-use addresses) and by RFC 7591 registration, each a setting;
 * - RFC 9207 `iss` on authorization responses (oidc-provider always adds it);
 * - short opaque access tokens (looked up per request by the gateway, so revocation is immediate),
 *   refresh tokens rotated at every use, RFC 7009 revocation and RFC 7662 introspection;
 * - consent always asked (no silent re-use of an earlier grant): the person sees the client, the
 *   tenant, the role and the projects every time a client asks.
 * Built on first use, so a process that never serves OAuth never loads it.
 */
@Injectable()
export class OAuthProvider {
  private readonly logger = new Logger('OAuthProvider');
  private provider: Provider | undefined;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly records: OAuthRecordsRepository,
    private readonly grants: OAuthGrants,
    private readonly fetcher: SafeFetcher,
    @Optional() @Inject(OAUTH_FETCH_TRUSTED_ADDRESSES) private readonly trusted?: readonly string[],
  ) {}

  get enabled(): boolean {
    return this.config.oauth.enabled;
  }

  /** The provider; only when OAuth is enabled (the configuration has checked what it needs). */
  get instance(): Provider {
    if (!this.provider) this.provider = this.build();
    return this.provider;
  }

  private build(): Provider {
    const { oauth, secrets } = this.config;
    const issuer = oauth.issuer;
    const resource = oauth.resource;
    const masterKey = secrets.masterKey;
    if (!oauth.enabled || !issuer || !resource || !masterKey) {
      throw new Error(
        'OAuth is not enabled: OAUTH_ENABLED, API_PUBLIC_URL, MCP_PUBLIC_URL and CAIRN_MASTER_KEY are needed',
      );
    }
    const previous = secrets.previousMasterKey;
    const configuration: Configuration = {
      adapter: oauthAdapterClass(this.records, this.grants),
      // The accountId is the Cairn user id the consent named; nothing else is disclosed.
      findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
      interactions: { url: (_ctx, interaction) => `${INTERACTIONS_PATH}/${interaction.uid}` },
      cookies: {
        keys: [cookieKeyOf(masterKey), ...(previous ? [cookieKeyOf(previous)] : [])],
      },
      jwks: { keys: [signingKeyOf(masterKey), ...(previous ? [signingKeyOf(previous)] : [])] },
      routes: ROUTES,
      // The provider's own scopes; `mcp` is the resource's (getResourceServerInfo).
      scopes: ['openid', 'offline_access'],
      claims: { openid: ['sub'] },
      responseTypes: ['code'],
      // MCP clients register with the scope the gateway's challenge names (the MCP SDK sends it,
      // SEP-835). `mcp` is the resource's scope, given through the resource indicator; oidc-provider
      // checks a client's `scope` against its own scopes only and would refuse the registration.
      // So `mcp` is taken out of a client's registered scopes; any other unknown one is still refused.
      extraClientMetadata: { properties: ['scope'], validator: withoutResourceScope },
      pkce: { required: () => true },
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'ES256',
      },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: oauth.dynamicRegistration, initialAccessToken: false },
        registrationManagement: { enabled: false },
        // A client revokes and introspects its own tokens only.
        revocation: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
        introspection: { enabled: true, allowedPolicy: (_ctx, client, token) => token.clientId === client.clientId },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        clientIdMetadataDocument: { enabled: oauth.clientMetadataDocuments, ack: 'draft-02' },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          getResourceServerInfo: (_ctx, indicator) => {
            if (indicator !== resource)
              throw new errors.InvalidTarget(`this server issues tokens for ${resource} only`);
            return {
              scope: MCP_SCOPE,
              audience: resource,
              accessTokenTTL: oauth.accessTokenTtlSeconds,
              accessTokenFormat: 'opaque',
            };
          },
        },
      },
      ttl: {
        AccessToken: oauth.accessTokenTtlSeconds,
        AuthorizationCode: 60,
        IdToken: 3_600,
        Interaction: 3_600,
        Session: 3_600,
        Grant: oauth.grantTtlSeconds,
        RefreshToken: oauth.refreshTokenTtlSeconds,
      },
      // A grant is the person's consent, not oidc-provider's session: tokens outlive the session,
      // every client with the refresh grant gets a refresh token, and every use rotates it.
      expiresWithSession: () => false,
      issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: () => true,
      // Only the grant the person has just given in this very interaction, never one remembered
      // from the provider's session: every authorization request is consented to anew.
      loadExistingGrant: async (ctx) => {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return typeof grantId === 'string' ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      // Browser-based clients (the MCP Inspector) call the token endpoint cross-origin: only from
      // an origin of one of their own redirect URIs.
      clientBasedCORS: (_ctx, origin, client) =>
        (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
      renderError: renderOAuthError,
      fetch: oauthFetch(this.fetcher, this.trusted) as Configuration['fetch'],
      conformIdTokenClaims: true,
    };
    const provider = new Provider(issuer, configuration);
    // Behind the ingress: X-Forwarded-Proto and -Host say how the browser reached it.
    provider.proxy = true;
    provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => {
      this.logger.error({ msg: 'authorization server error', err: error });
    });
    return provider;
  }
}
