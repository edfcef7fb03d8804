import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

/** A person's consent to an OAuth client, as stored (cairn.oauth_grants). */
export interface StoredOAuthGrant {
  readonly id: string;
  readonly tenantId: string;
  readonly userId: string;
  readonly tokenId: string;
  readonly clientId: string;
  readonly clientName: string | null;
  readonly clientUri: string | null;
  readonly role: string;
  readonly projects: readonly string[];
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

export type NewOAuthGrant = Omit<StoredOAuthGrant, 'createdAt' | 'revokedAt'>;

interface Row {
  id: string;
  tenant_id: string;
  user_id: string;
  token_id: string;
  client_id: string;
  client_name: string | null;
  client_uri: string | null;
  role: string;
  project_scope: string[];
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

const COLUMNS = `id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
  expires_at, revoked_at`;

const toGrant = (row: Row): StoredOAuthGrant => ({
  id: row.id,
  tenantId: row.tenant_id,
  userId: row.user_id,
  tokenId: row.token_id,
  clientId: row.client_id,
  clientName: row.client_name,
  clientUri: row.client_uri,
  role: row.role,
  projects: row.project_scope,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
});

const GRANT_ID = 'g'.repeat(43);

@Injectable()
export class OAuthGrantsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @SqlSnapshot({
    params: [
      {
        id: GRANT_ID,
        tenantId: EX.tenantId,
        userId: EX.userId,
        tokenId: EX.tokenId,
        clientId: 'https://client.example/metadata.json',
        clientName: 'Example client',
        clientUri: 'https://client.example',
        role: 'member',
        projects: ['*'],
        expiresAt: EX.future,
      },
    ],
  })
  async insert(grant: NewOAuthGrant): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO cairn.oauth_grants
         (id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        grant.id,
        grant.tenantId,
        grant.userId,
        grant.tokenId,
        grant.clientId,
        grant.clientName,
        grant.clientUri,
        grant.role,
        grant.projects,
        grant.expiresAt,
      ],
    );
  }

  /**
   * An unexpired access token's payload (by the id the provider stored it under) with its grant
   * when that is live, in one statement: the gateway's check at every request.
   */
  @SqlSnapshot({ params: ['c'.repeat(64)] })
  async accessTokenWithGrant(
    recordId: string,
  ): Promise<{ payload: Record<string, unknown>; grant: StoredOAuthGrant | undefined } | undefined> {
    const rows = await this.dataSource.query<(Row & { payload: Record<string, unknown>; grant_live: boolean })[]>(
      `SELECT r.payload, g.id IS NOT NULL AS grant_live, ${COLUMNS.replace(/(\w+)/g, 'g.$1')}
       FROM cairn.oauth_records r
       LEFT JOIN cairn.oauth_grants g ON g.id = r.grant_id AND g.revoked_at IS NULL AND g.expires_at > now()
       WHERE r.kind = 'AccessToken' AND r.id = $1 AND (r.expires_at IS NULL OR r.expires_at > now())`,
      [recordId],
    );
    const row = rows[0];
    return row && { payload: row.payload, grant: row.grant_live ? toGrant(row) : undefined };
  }

  /** A grant neither revoked nor expired (nor gone with its tenant or user). */
  @SqlSnapshot({ params: [GRANT_ID] })
  async findLive(id: string): Promise<StoredOAuthGrant | undefined> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT ${COLUMNS} FROM cairn.oauth_grants WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [id],
    );
    return rows[0] && toGrant(rows[0]);
  }

  /** A tenant's grants (or one user's), newest first, revoked ones included for a while: the record of who allowed what. */
  @SqlSnapshot(
    { name: 'tenant', params: [EX.tenantId, null, 50] },
    { name: 'user', params: [EX.tenantId, EX.userId, 50] },
  )
  async list(tenantId: string, userId: string | null, limit: number): Promise<StoredOAuthGrant[]> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT ${COLUMNS} FROM cairn.oauth_grants
       WHERE tenant_id = $1 AND ($2::uuid IS NULL OR user_id = $2)
         AND (revoked_at IS NULL OR revoked_at > now() - interval '30 days')
       ORDER BY created_at DESC, id LIMIT $3`,
      [tenantId, userId, limit],
    );
    return rows.map(toGrant);
  }

  /** Marks a grant revoked; what it returns is the grant, if it was live (else nothing to undo). */
  @SqlSnapshot({ params: [EX.tenantId, GRANT_ID, null] })
  async revoke(tenantId: string, id: string, userId: string | null): Promise<StoredOAuthGrant | undefined> {
    const rows = await queryReturning<Row>(
      this.dataSource,
      `UPDATE cairn.oauth_grants SET revoked_at = now()
       WHERE tenant_id = $1 AND id = $2 AND ($3::uuid IS NULL OR user_id = $3) AND revoked_at IS NULL
       RETURNING ${COLUMNS}`,
      [tenantId, id, userId],
    );
    return rows[0] && toGrant(rows[0]);
  }

  /** Marks a grant revoked by the authorization server itself (a replayed code or refresh token), whatever its tenant. */
  @SqlSnapshot({ params: [GRANT_ID] })
  async revokeById(id: string): Promise<StoredOAuthGrant | undefined> {
    const rows = await queryReturning<Row>(
      this.dataSource,
      `UPDATE cairn.oauth_grants SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] && toGrant(rows[0]);
  }

  /** Whether a grant of this tenant (and user, when given) exists at all, revoked or not. */
  @SqlSnapshot({ params: [EX.tenantId, GRANT_ID, null] })
  async exists(tenantId: string, id: string, userId: string | null): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM cairn.oauth_grants WHERE tenant_id = $1 AND id = $2 AND ($3::uuid IS NULL OR user_id = $3)`,
      [tenantId, id, userId],
    );
    return rows.length > 0;
  }
}
