import { Injectable, Logger } from '@nestjs/common';
import { CairnError, ForbiddenError } from '@cairn/common';
import { type OidcProviderConfig } from '@cairn/config';
import { type LiveTenant, TenantsService, toLiveTenant } from '@cairn/tenancy';
import * as oidc from 'openid-client';
import { BrowserSessions, type SessionClient, type StartedSession } from './browser-sessions.service';
import { LoginThrottle } from './login-throttle.service';
import { OidcAccounts } from './oidc-accounts.service';
import { OidcAttempts } from './oidc-attempts.service';
import { identityFrom } from './oidc-claims';
import { describe, OidcProviders, providerUnavailable } from './oidc-providers.service';

/** Where the browser goes next, and the cookie it takes along. */
export interface OidcRedirect {
  readonly location: string;
  readonly setCookie: string;
}

type Cookies = Readonly<Record<string, string | undefined>> | undefined;

/**
 * Sign-in through an identity provider (docs/sign-in.md, "OIDC federation"): the authorization
 * code flow with PKCE (S256), state and nonce. The protocol is openid-client's (certified): it
 * checks the state, the issuer (`iss` of the response and of the ID token), the PKCE verifier at
 * the token endpoint, and the ID token's signature (the IdP's JWKS), audience, nonce and expiry.
 * What is Cairn's: which attempt a callback belongs to (OidcAttempts), the claims → tenant and
 * role mapping, which user that is (OidcAccounts), and the browser session it starts.
 */
@Injectable()
export class OidcSignIn {
  private readonly logger = new Logger('OidcSignIn');

  constructor(
    private readonly providers: OidcProviders,
    private readonly attempts: OidcAttempts,
    private readonly accounts: OidcAccounts,
    private readonly tenants: TenantsService,
    private readonly sessions: BrowserSessions,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Sends the browser to the provider, keeping what its return must match. */
  async start(providerId: string): Promise<OidcRedirect> {
    const provider = this.providers.get(providerId);
    const configuration = await this.providers.configuration(provider);
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const attempt = { provider: provider.id, state: oidc.randomState(), nonce: oidc.randomNonce(), codeVerifier };
    const location = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.providers.redirectUri(provider),
      scope: provider.scopes.join(' '),
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: attempt.state,
      nonce: attempt.nonce,
    });
    return { location: location.href, setCookie: await this.attempts.begin(attempt) };
  }

  /**
   * The provider's answer: checked, mapped and turned into a browser session. Refusals count
   * against the client address like failed local sign-ins, so the callback cannot be used to
   * try codes or replay answers at speed.
   */
  async finish(
    providerId: string,
    query: string,
    cookies: Cookies,
    client: SessionClient,
  ): Promise<StartedSession & { tenant: LiveTenant }> {
    await this.throttle.assertAllowed(undefined, client.ip);
    try {
      return await this.complete(providerId, query, cookies, client);
    } catch (error) {
      // A provider that is down is not the person's failure.
      if (error instanceof CairnError && error.status < 500) await this.throttle.recordFailure(undefined, client.ip);
      throw error;
    }
  }

  private async complete(providerId: string, query: string, cookies: Cookies, client: SessionClient) {
    const provider = this.providers.get(providerId);
    const attempt = await this.attempts.take(cookies);
    if (!attempt || attempt.provider !== provider.id) {
      throw new CairnError(400, 'sign_in_expired', 'This sign-in was not started here, took too long or was used');
    }
    const configuration = await this.providers.configuration(provider);
    // The URL the provider was told to return to (behind a proxy the request's own URL differs).
    const answer = new URL(this.providers.redirectUri(provider));
    answer.search = query;
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, answer, {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: attempt.state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      });
      // The ID token's claims only: the mapping reads what the IdP signed for this sign-in.
      claims = { ...tokens.claims() };
    } catch (error) {
      throw this.refusal(provider, error);
    }
    const identity = identityFrom(provider, claims);
    const tenant = await this.tenantOf(identity.tenant);
    const { accountId, userId } = await this.accounts.resolve(provider, tenant, identity);
    const started = await this.sessions.start({ kind: 'tenant', accountId, tenant, userId }, client);
    return { ...started, tenant };
  }

  private async tenantOf(slug: string): Promise<LiveTenant> {
    const entity = await this.tenants.findBySlug(slug);
    if (!entity) throw new ForbiddenError('There is no workspace of that name here', 'unknown_tenant');
    return toLiveTenant(entity);
  }

  /**
   * What openid-client refused, as the person's error code; the reason goes to the log for the
   * operator (a wrong issuer or audience is a configuration problem as often as an attack).
   */
  private refusal(provider: OidcProviderConfig, error: unknown): CairnError {
    const reason = describe(error);
    this.logger.warn({ msg: 'OIDC sign-in refused', provider: provider.id, err: reason });
    if (error instanceof oidc.AuthorizationResponseError) {
      return new CairnError(401, 'idp_refused', 'The identity provider did not sign you in');
    }
    // Network failures, timeouts and IdP answers that are not OAuth at all.
    const unreachable =
      (reason.name === 'TypeError' && reason.message === 'fetch failed') ||
      reason.name === 'TimeoutError' ||
      reason.name === 'AbortError' ||
      reason.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' ||
      reason.code === 'OAUTH_RESPONSE_IS_NOT_JSON';
    if (unreachable && !(error instanceof oidc.ResponseBodyError)) return providerUnavailable();
    return new CairnError(401, 'sign_in_failed', 'The answer of the identity provider could not be verified');
  }
}
