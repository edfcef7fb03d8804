import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { type BearerScheme, BearerSchemes, TokenVerifier } from '@cairn/auth';
import { UnauthenticatedError, type UnauthenticatedCode } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { storedIdOf } from './oauth-adapter';
import { OAuthGrantsRepository } from './oauth-grants.repository';

/** oidc-provider's opaque tokens: 43 base64url characters (256 bits); the bound leaves room. */
const OPAQUE_TOKEN = /^[A-Za-z0-9_-]{32,128}$/;

/**
 * The gateway's check of an access token of Cairn's own authorization server: the token is
 * looked up at every request (by its hash, where the provider stored it), must be unexpired and
 * issued for this very resource (RFC 8707: its audience is `<MCP_PUBLIC_URL>/mcp`), its grant
 * must be live, and the grant acts through a session token that gets every check a token gets
 * (revoked, expired, user disabled, tenant suspended or gone, role capped by the user's).
 * Revoking the grant or the access token (RFC 7009) is so effective at the next request, on
 * every replica: nothing about it is remembered here.
 */
@Injectable()
export class OAuthAccessTokens implements BearerScheme, OnModuleInit {
  readonly name = 'cairn-oauth';

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly schemes: BearerSchemes,
    private readonly grants: OAuthGrantsRepository,
    private readonly verifier: TokenVerifier,
  ) {}

  onModuleInit(): void {
    if (this.config.oauth.enabled) this.schemes.register(this);
  }

  accepts(token: string): boolean {
    return OPAQUE_TOKEN.test(token);
  }

  async verify(token: string, challenge: Record<string, string>): Promise<SessionPrincipal> {
    const invalid = (message: string) => new UnauthenticatedError('invalid_token', message, challenge);
    const found = await this.grants.accessTokenWithGrant(storedIdOf('AccessToken', token));
    if (!found) throw invalid('Token is not recognised, or has expired or been revoked');
    const payload = found.payload;
    const expiresAt = typeof payload.exp === 'number' ? payload.exp * 1000 : 0;
    if (expiresAt <= Date.now())
      throw new UnauthenticatedError('token_expired', 'The access token has expired', challenge);
    if (!audiencesOf(payload.aud).includes(this.config.oauth.resource as string)) {
      throw invalid('The access token was issued for another resource');
    }
    const grant = found.grant;
    if (!grant || grant.id !== payload.grantId || grant.clientId !== payload.clientId)
      throw invalid('The grant behind this token was revoked');
    try {
      return { ...(await this.verifier.verifyTokenId(grant.tokenId)), via: 'oauth' };
    } catch (error) {
      // The grant's token refused (user disabled, tenant gone…): the same reason, with this resource's challenge.
      if (error instanceof UnauthenticatedError)
        throw new UnauthenticatedError(error.code as UnauthenticatedCode, error.message, challenge);
      throw error;
    }
  }
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((value): value is string => typeof value === 'string') : [];
}
