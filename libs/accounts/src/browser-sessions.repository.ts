import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

/** A browser session as stored, with the database's clock (timeouts are judged by one clock). */
export interface StoredBrowserSession {
  readonly id: string;
  readonly accountId: string | null;
  readonly kind: 'tenant' | 'platform';
  readonly tenantId: string | null;
  readonly tokenId: string | null;
  readonly mustCreateAccount: boolean;
  readonly idleTimeoutSeconds: number;
  readonly createdAt: Date;
  readonly lastSeenAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
  readonly userAgent: string | null;
  readonly ip: string | null;
  readonly now: Date;
}

export type NewBrowserSession = Omit<StoredBrowserSession, 'createdAt' | 'lastSeenAt' | 'revokedAt' | 'now'>;

/** What ending a session leaves to do: revoke the token behind it, if it has one. */
export interface EndedSession {
  readonly tenantId: string | null;
  readonly tokenId: string | null;
}

interface Row {
  id: string;
  account_id: string | null;
  kind: 'tenant' | 'platform';
  tenant_id: string | null;
  token_id: string | null;
  must_create_account: boolean;
  idle_timeout_seconds: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
  user_agent: string | null;
  ip: string | null;
  now: Date;
}

const COLUMNS = `id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, created_at,
  last_seen_at, expires_at, revoked_at, user_agent, ip, now() AS now`;

const SESSION_ID = 'a'.repeat(64);

function toSession(row: Row): StoredBrowserSession {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    tenantId: row.tenant_id,
    tokenId: row.token_id,
    mustCreateAccount: row.must_create_account,
    idleTimeoutSeconds: row.idle_timeout_seconds,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    userAgent: row.user_agent,
    ip: row.ip,
    now: row.now,
  };
}

const toEnded = (rows: { tenant_id: string | null; token_id: string | null }[]): EndedSession[] =>
  rows.map((row) => ({ tenantId: row.tenant_id, tokenId: row.token_id }));

@Injectable()
export class BrowserSessionsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @SqlSnapshot({
    params: [
      {
        id: SESSION_ID,
        accountId: null,
        kind: 'platform',
        tenantId: null,
        tokenId: null,
        mustCreateAccount: true,
        idleTimeoutSeconds: 1800,
        expiresAt: EX.future,
        userAgent: 'Mozilla/5.0',
        ip: '203.0.113.7',
      },
    ],
  })
  async insert(session: NewBrowserSession): Promise<StoredBrowserSession> {
    const rows = await this.dataSource.query<Row[]>(
      `INSERT INTO cairn.browser_sessions
         (id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, expires_at, user_agent, ip)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING ${COLUMNS}`,
      [
        session.id,
        session.accountId,
        session.kind,
        session.tenantId,
        session.tokenId,
        session.mustCreateAccount,
        session.idleTimeoutSeconds,
        session.expiresAt,
        session.userAgent,
        session.ip,
      ],
    );
    return toSession(rows[0]);
  }

  @SqlSnapshot({ params: [SESSION_ID] })
  async find(id: string): Promise<StoredBrowserSession | undefined> {
    const rows = await this.dataSource.query<Row[]>(`SELECT ${COLUMNS} FROM cairn.browser_sessions WHERE id = $1`, [
      id,
    ]);
    return rows[0] && toSession(rows[0]);
  }

  /** Records activity, at most once per `intervalSeconds` (a write per request would be wasted). */
  @SqlSnapshot({ params: [SESSION_ID, 60] })
  async touch(id: string, intervalSeconds: number): Promise<void> {
    await this.dataSource.query(
      `UPDATE cairn.browser_sessions SET last_seen_at = now()
       WHERE id = $1 AND last_seen_at < now() - make_interval(secs => $2)`,
      [id, intervalSeconds],
    );
  }

  /** Ends one session; what it returns is the token to revoke (nothing if it had ended already). */
  @SqlSnapshot({ params: [SESSION_ID] })
  async revoke(id: string): Promise<EndedSession[]> {
    const rows = await queryReturning<{ tenant_id: string | null; token_id: string | null }>(
      this.dataSource,
      `UPDATE cairn.browser_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
       RETURNING tenant_id, token_id`,
      [id],
    );
    return toEnded(rows);
  }

  /** Ends one of the account's sessions (the session list's "sign out there"). */
  @SqlSnapshot({ params: [EX.newId, SESSION_ID] })
  async revokeOfAccount(accountId: string, id: string): Promise<EndedSession[]> {
    const rows = await queryReturning<{ tenant_id: string | null; token_id: string | null }>(
      this.dataSource,
      `UPDATE cairn.browser_sessions SET revoked_at = now()
       WHERE id = $2 AND account_id = $1 AND revoked_at IS NULL
       RETURNING tenant_id, token_id`,
      [accountId, id],
    );
    return toEnded(rows);
  }

  /** Ends every session of the account (sign out everywhere, a new password). */
  @SqlSnapshot({ params: [EX.newId] })
  async revokeAllOfAccount(accountId: string): Promise<EndedSession[]> {
    const rows = await queryReturning<{ tenant_id: string | null; token_id: string | null }>(
      this.dataSource,
      `UPDATE cairn.browser_sessions SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL
       RETURNING tenant_id, token_id`,
      [accountId],
    );
    return toEnded(rows);
  }

  /** The account's sessions that are neither ended nor timed out, newest first (bounded). */
  @SqlSnapshot({ params: [EX.newId] })
  async listLive(accountId: string): Promise<StoredBrowserSession[]> {
    const rows = await this.dataSource.query<Row[]>(
      `SELECT ${COLUMNS} FROM cairn.browser_sessions
       WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > now()
         AND last_seen_at + make_interval(secs => idle_timeout_seconds) > now()
       ORDER BY created_at DESC
       LIMIT 100`,
      [accountId],
    );
    return rows.map(toSession);
  }
}
