import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

/** One artifact oidc-provider keeps (its adapter's unit): the payload as it gave it, by kind and id. */
export interface OAuthRecord {
  readonly payload: Record<string, unknown>;
  readonly expiresAt: Date | null;
  readonly consumedAt: Date | null;
}

export interface NewOAuthRecord {
  readonly kind: string;
  readonly id: string;
  readonly payload: Record<string, unknown>;
  readonly grantId: string | null;
  readonly uid: string | null;
  readonly userCode: string | null;
  readonly expiresInSeconds: number | null;
}

interface Row {
  payload: Record<string, unknown>;
  expires_at: Date | null;
  consumed_at: Date | null;
}

const toRecord = (row: Row | undefined): OAuthRecord | undefined =>
  row && { payload: row.payload, expiresAt: row.expires_at, consumedAt: row.consumed_at };

const LIVE = '(expires_at IS NULL OR expires_at > now())';
const KIND = 'AccessToken';
const ID = 'c'.repeat(64);
const GRANT = 'g'.repeat(43);

/** cairn.oauth_records: the storage behind oidc-provider's adapter (PostgresOAuthAdapter). */
@Injectable()
export class OAuthRecordsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @SqlSnapshot({
    params: [
      { kind: KIND, id: ID, payload: { jti: 'x' }, grantId: GRANT, uid: null, userCode: null, expiresInSeconds: 600 },
    ],
  })
  async upsert(record: NewOAuthRecord): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO cairn.oauth_records (kind, id, payload, grant_id, uid, user_code, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::integer IS NULL THEN NULL ELSE now() + make_interval(secs => $7::integer) END)
       ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
         uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at`,
      [
        record.kind,
        record.id,
        JSON.stringify(record.payload),
        record.grantId,
        record.uid,
        record.userCode,
        record.expiresInSeconds,
      ],
    );
  }

  @SqlSnapshot({ params: [KIND, ID] })
  async find(kind: string, id: string): Promise<OAuthRecord | undefined> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND id = $2 AND ${LIVE}`,
      [kind, id],
    );
    return toRecord(rows[0]);
  }

  @SqlSnapshot({ params: ['Session', 'u'.repeat(21)] })
  async findByUid(kind: string, uid: string): Promise<OAuthRecord | undefined> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND uid = $2 AND ${LIVE}`,
      [kind, uid],
    );
    return toRecord(rows[0]);
  }

  @SqlSnapshot({ params: ['DeviceCode', 'ABCD-EFGH'] })
  async findByUserCode(kind: string, userCode: string): Promise<OAuthRecord | undefined> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND user_code = $2 AND ${LIVE}`,
      [kind, userCode],
    );
    return toRecord(rows[0]);
  }

  @SqlSnapshot({ params: ['AuthorizationCode', ID] })
  async consume(kind: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE cairn.oauth_records SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL`,
      [kind, id],
    );
  }

  @SqlSnapshot({ params: [KIND, ID] })
  async destroy(kind: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM cairn.oauth_records WHERE kind = $1 AND id = $2`, [kind, id]);
  }

  /** Every artifact of a grant, whatever its kind: what revoking a grant leaves nothing of. */
  @SqlSnapshot({ params: [GRANT] })
  async destroyByGrantId(grantId: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM cairn.oauth_records WHERE grant_id = $1`, [grantId]);
  }

  /** Sweeps artifacts expired for a day (a day's grace keeps a just-expired one explainable). */
  @SqlSnapshot({ params: [1000] })
  async deleteExpired(limit: number): Promise<number> {
    const rows = await queryReturning<{ id: string }>(
      this.dataSource,
      `DELETE FROM cairn.oauth_records WHERE ctid IN (
         SELECT ctid FROM cairn.oauth_records WHERE expires_at < now() - interval '1 day' LIMIT $1)
       RETURNING id`,
      [limit],
    );
    return rows.length;
  }
}
