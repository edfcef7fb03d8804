import { Injectable } from '@nestjs/common';
import { TenantsService } from '@cairn/tenancy';
import { type TokenLookup, TokensRepository } from './tokens.repository';

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
    const token = await this.tokens.lookup(hash);
    if (!token) return undefined;
    const tenant = await this.tenants.findLiveById(token.tenantId);
    // A deleted tenant's tokens are refused (and were revoked with it): its names no longer matter.
    return {
      ...token,
      tenantSlug: tenant?.slug ?? '',
      tenantName: tenant?.name ?? '',
      tenantSchema: tenant?.schemaName ?? '',
      tenantDeleted: tenant === null,
    };
  }
}
