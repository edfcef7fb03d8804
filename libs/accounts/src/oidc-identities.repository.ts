import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

/** Which account a provider's subject is, within one tenant (migration 0008-oidc-identities). */
export interface OidcIdentityKey {
  readonly provider: string;
  readonly subject: string;
  readonly tenantId: string;
}

const UNIQUE_VIOLATION = '23505';

@Injectable()
export class OidcIdentitiesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The linked account's id, noting the sign-in; undefined when the subject is not linked yet. */
  @SqlSnapshot({ params: [{ provider: 'keycloak', subject: 'f81d4fae-7dec', tenantId: EX.tenantId }] })
  async signIn(key: OidcIdentityKey): Promise<string | undefined> {
    const rows = await queryReturning<{ account_id: string }>(
      this.dataSource,
      `UPDATE cairn.oidc_identities SET last_sign_in_at = now()
       WHERE provider = $1 AND subject = $2 AND tenant_id = $3 RETURNING account_id`,
      [key.provider, key.subject, key.tenantId],
    );
    return rows[0]?.account_id;
  }

  /**
   * Links the subject to the account; false when the account is linked to another subject of the
   * same provider (or the subject to another account). A link a concurrent first sign-in of the
   * same person made meanwhile is no refusal.
   */
  @SqlSnapshot({ params: [{ provider: 'keycloak', subject: 'f81d4fae-7dec', tenantId: EX.tenantId }, EX.newId] })
  async link(key: OidcIdentityKey, accountId: string): Promise<boolean> {
    try {
      const rows = await this.dataSource.query<{ same: boolean }[]>(
        `INSERT INTO cairn.oidc_identities (provider, subject, tenant_id, account_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (provider, subject, tenant_id) DO UPDATE SET last_sign_in_at = now()
         RETURNING account_id = $4 AS same`,
        [key.provider, key.subject, key.tenantId, accountId],
      );
      return rows[0]?.same === true;
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return false;
      throw error;
    }
  }
}
