import { Inject, Injectable, Logger } from '@nestjs/common';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig, issuerAllowsHttp, type OidcProviderConfig } from '@cairn/config';
import * as oidc from 'openid-client';

/** How long a discovered configuration is used before the metadata is fetched again. */
const REDISCOVER_AFTER_MS = 60 * 60 * 1000;
/** The IdP's metadata, JWKS and token requests each give up after this long. */
const IDP_TIMEOUT_SECONDS = 10;

export const providerUnavailable = () =>
  new CairnError(502, 'provider_unavailable', 'The identity provider cannot be reached or answered wrongly; try again');

interface Discovered {
  readonly configuration: oidc.Configuration;
  readonly at: number;
}

/**
 * The configured identity providers (OIDC_PROVIDERS) and their discovered metadata. Discovery
 * (issuer metadata, then the JWKS when a token is first checked) is openid-client's and happens
 * at first use, not at boot, so an IdP that is down does not keep the api from starting; a
 * failed discovery is retried at the next sign-in and a good one is refreshed hourly (new
 * endpoints; the JWKS is refetched by openid-client itself when a token names an unknown key).
 */
@Injectable()
export class OidcProviders {
  private readonly logger = new Logger('OidcProviders');
  private readonly byId: ReadonlyMap<string, OidcProviderConfig>;
  private readonly discovered = new Map<string, Promise<Discovered>>();

  constructor(@Inject(CAIRN_CONFIG) private readonly config: CairnConfig) {
    this.byId = new Map(config.accounts.oidc.providers.map((provider) => [provider.id, provider]));
  }

  /** What the sign-in page lists: ids and display names, in configuration order. */
  list(): { id: string; name: string }[] {
    return [...this.byId.values()].map(({ id, name }) => ({ id, name }));
  }

  get(id: string): OidcProviderConfig {
    const provider = this.byId.get(id);
    if (!provider) throw new CairnError(404, 'unknown_provider', 'No identity provider of that name is configured');
    return provider;
  }

  /** Where the provider sends people back: registered with the IdP as the client's redirect URI. */
  redirectUri(provider: OidcProviderConfig): string {
    return `${this.config.accounts.oidc.publicUrl}/v1/session/oidc/${provider.id}/callback`;
  }

  /** The provider's discovered configuration; 502 provider_unavailable when discovery fails. */
  async configuration(provider: OidcProviderConfig): Promise<oidc.Configuration> {
    const cached = this.discovered.get(provider.id);
    if (cached) {
      const found = await cached.catch(() => undefined);
      if (found && Date.now() - found.at < REDISCOVER_AFTER_MS) return found.configuration;
      // Only the first caller to see it stale or failed replaces it; the others share the retry.
      if (this.discovered.get(provider.id) === cached) this.discovered.delete(provider.id);
    }
    let pending = this.discovered.get(provider.id);
    if (!pending) {
      pending = this.discover(provider);
      this.discovered.set(provider.id, pending);
    }
    try {
      return (await pending).configuration;
    } catch {
      throw providerUnavailable();
    }
  }

  private async discover(provider: OidcProviderConfig): Promise<Discovered> {
    try {
      const configuration = await oidc.discovery(
        new URL(provider.issuer),
        provider.clientId,
        undefined,
        oidc.ClientSecretBasic(provider.clientSecret),
        {
          timeout: IDP_TIMEOUT_SECONDS,
          execute: [
            // The ID token's signature is checked against the IdP's JWKS too. OIDC lets a client
            // rely on TLS alone for a token it fetched itself; a compromised or misrouted token
            // endpoint (or a plain-http loopback IdP) is then caught as well.
            oidc.enableNonRepudiationChecks,
            // Plain http only for a loopback issuer (the config refuses it anywhere else).
            ...(issuerAllowsHttp(provider.issuer) ? [oidc.allowInsecureRequests] : []),
          ],
        },
      );
      return { configuration, at: Date.now() };
    } catch (error) {
      // The operator needs the reason (wrong issuer, unreachable, not OIDC); the person gets a code.
      this.logger.warn({ msg: 'OIDC discovery failed', provider: provider.id, err: describe(error) });
      throw error;
    }
  }
}

/**
 * An openid-client error as a log line: its code and message, and its cause's message, which
 * says what exactly failed (`unexpected "aud" claim value`); never a token or a secret.
 */
export function describe(error: unknown): { name: string; code?: string; message: string; cause?: string } {
  const { name, message, code, cause } = error as { name?: string; message?: string; code?: string; cause?: unknown };
  const because = cause instanceof Object && 'message' in cause ? String(cause.message) : undefined;
  return { name: name ?? 'Error', code, message: String(message ?? error), ...(because && { cause: because }) };
}
