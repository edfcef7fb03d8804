import { Injectable } from '@nestjs/common';
import { type Principal } from '@cairn/access';
import { TokensService } from '@cairn/auth';
import { NotFoundError } from '@cairn/common';
import { type TenantRef } from '@cairn/tenancy';
import { type GrantLink } from './oauth-adapter';
import { OAuthGrantsRepository, type StoredOAuthGrant } from './oauth-grants.repository';
import { OAuthRecordsRepository } from './oauth-records.repository';

const LIST_LIMIT = 200;

/**
 * Grants as people and admins see them: a person's own (the console's "Connected applications"),
 * a tenant's (its admins), and revocation. Revoking marks the grant, revokes the session token it
 * acts through (every replica hears of it before the answer: TokensService settles the change
 * notices) and deletes every code, access and refresh token the provider holds for it.
 */
@Injectable()
export class OAuthGrants implements GrantLink {
  constructor(
    private readonly grants: OAuthGrantsRepository,
    private readonly records: OAuthRecordsRepository,
    private readonly tokens: TokensService,
  ) {}

  async isLive(id: string): Promise<boolean> {
    return (await this.grants.findLive(id)) !== undefined;
  }

  listOfTenant(tenant: TenantRef): Promise<StoredOAuthGrant[]> {
    return this.grants.list(tenant.id, null, LIST_LIMIT);
  }

  listOfUser(tenant: TenantRef, userId: string): Promise<StoredOAuthGrant[]> {
    return this.grants.list(tenant.id, userId, LIST_LIMIT);
  }

  /** An admin's revocation: the grant's token must be within the admin's own project scope. */
  async revokeInTenant(tenant: TenantRef, revoker: Principal, id: string): Promise<void> {
    const revoked = await this.grants.revoke(tenant.id, id, null);
    if (!revoked) return this.assertKnown(tenant, id, null);
    await this.tokens.revoke(tenant, revoker, revoked.tokenId).catch(ignoreGone);
    await this.records.destroyByGrantId(id);
  }

  /** A person's revocation of one of their own grants. */
  async revokeOwn(tenant: TenantRef, userId: string, id: string): Promise<void> {
    const revoked = await this.grants.revoke(tenant.id, id, userId);
    if (!revoked) return this.assertKnown(tenant, id, userId);
    await this.tokens.revokeIssued(tenant.id, revoked.tokenId);
    await this.records.destroyByGrantId(id);
  }

  /**
   * The authorization server revoked a grant itself: a replayed authorization code or a reused
   * (already rotated) refresh token, the signs of a stolen credential (RFC 9700 §4.14.2). Its
   * tokens are gone from the provider already; the grant and its session token go too.
   */
  async revokedByServer(id: string): Promise<void> {
    const revoked = await this.grants.revokeById(id);
    if (revoked) await this.tokens.revokeIssued(revoked.tenantId, revoked.tokenId);
  }

  /** Revoking a revoked grant is done already (204); a grant that is not there (or not the caller's) is 404. */
  private async assertKnown(tenant: TenantRef, id: string, userId: string | null): Promise<void> {
    if (!(await this.grants.exists(tenant.id, id, userId))) throw new NotFoundError('Grant');
  }
}

/** The token was revoked or deleted already (its user deleted): the grant's revocation stands. */
function ignoreGone(error: unknown): void {
  if (error instanceof NotFoundError) return;
  throw error;
}
