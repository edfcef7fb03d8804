import { Injectable } from '@nestjs/common';
import { TenantsService } from '@cairn/tenancy';
import { type StoredToken, type TokenLookup, TokensRepository } from './tokens.repository';

/**
 * The database's answer about a presented token: the token and its user (auth's tables), then
 * its tenant (@cairn/tenancy's). TokenVerifier caches the answer under the change notices'
 * watch, so this runs once per token per replica until something about it changes.
 */
@Injectable()
export class TokenLookups {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly tenants: TenantsService,
  ) {}

  async find(hash: Buffer): Promise<TokenLookup | undefined> {
    return this.withTenant(await this.tokens.lookup(hash));
  }

  /** By the token's id: a browser session's token (never cached: a session holds no secret to key it by). */
  async findById(id: string): Promise<TokenLookup | undefined> {
    return this.withTenant(await this.tokens.lookupById(id));
  }

  private async withTenant(token: StoredToken | undefined): Promise<TokenLookup | undefined> {
    if (!token) return undefined;
    const tenant = await this.tenants.findLiveById(token.tenantId);
    // A deleted tenant's tokens are refused (and were revoked with it): its names no longer matter.
    return {
      ...token,
      tenantSlug: tenant?.slug ?? '',
      tenantName: tenant?.name ?? '',
      tenantSchema: tenant?.schemaName ?? '',
      tenantDeleted: tenant === null,
      tenantSuspended: tenant?.suspendedAt != null,
    };
  }
}
