import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';

const UNIQUE_VIOLATION = '23505';

export class DuplicatePlatformEmailError extends Error {}
/** Disabling this platform account would leave no enabled one. */
export class LastPlatformAccountError extends Error {}

/** A person's credentials: a tenant user's (`userId`), or a platform operator's (`email`, `name`). */
export interface Account {
  readonly id: string;
  readonly tenantId: string | null;
  readonly userId: string | null;
  /** Platform accounts only: a tenant account's email and name are its user's. */
  readonly email: string | null;
  readonly name: string | null;
  readonly passwordHash: string | null;
  /** Sealed (the tenant's data key, or the platform's for a platform account); null when no second factor is enabled. */
  readonly totpSecret: Buffer | null;
  /** Sealed secret of an enrolment not yet confirmed with a code. */
  readonly totpPending: Buffer | null;
  readonly disabledAt: Date | null;
}

/** A platform account as the operators' list shows it. */
export interface PlatformAccountRecord extends Account {
  readonly createdAt: Date;
}

interface AccountRow {
  id: string;
  tenant_id: string | null;
  user_id: string | null;
  email: string | null;
  name: string | null;
  password_hash: string | null;
  totp_secret: Buffer | null;
  totp_pending: Buffer | null;
  disabled_at: Date | null;
}

const COLUMNS = 'id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at';

function toAccount(row: AccountRow | undefined): Account | undefined {
  if (!row) return undefined;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    email: row.email,
    name: row.name,
    passwordHash: row.password_hash,
    totpSecret: row.totp_secret,
    totpPending: row.totp_pending,
    disabledAt: row.disabled_at,
  };
}

type DatedRow = AccountRow & { created_at: Date };

const toRecord = (row: DatedRow | undefined): PlatformAccountRecord | undefined =>
  row && { ...(toAccount(row) as Account), createdAt: row.created_at };

@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The user's account, made (without a password) if it has none: one statement, race-free. */
  @SqlSnapshot({ params: [EX.newId, EX.tenantId, EX.userId] })
  async ensureForUser(id: string, tenantId: string, userId: string): Promise<Account> {
    const rows = await this.dataSource.query<AccountRow[]>(
      `INSERT INTO cairn.accounts (id, tenant_id, user_id) VALUES ($1, $2, $3)
       ON CONFLICT (user_id) DO UPDATE SET updated_at = cairn.accounts.updated_at
       RETURNING ${COLUMNS}`,
      [id, tenantId, userId],
    );
    return toAccount(rows[0]) as Account;
  }

  @SqlSnapshot({ params: [EX.newId, 'ops@example.com', 'Ops', '$argon2id$v=19$m=19456,t=2,p=1$…'] })
  async insertPlatform(id: string, email: string, name: string, passwordHash: string): Promise<Account> {
    try {
      const rows = await this.dataSource.query<AccountRow[]>(
        `INSERT INTO cairn.accounts (id, email, name, password_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [id, email, name, passwordHash],
      );
      return toAccount(rows[0]) as Account;
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new DuplicatePlatformEmailError(email);
      throw error;
    }
  }

  @SqlSnapshot({ params: [EX.newId] })
  async findById(id: string): Promise<Account | undefined> {
    const rows = await this.dataSource.query<AccountRow[]>(`SELECT ${COLUMNS} FROM cairn.accounts WHERE id = $1`, [id]);
    return toAccount(rows[0]);
  }

  @SqlSnapshot({ params: [EX.userId] })
  async findByUserId(userId: string): Promise<Account | undefined> {
    const rows = await this.dataSource.query<AccountRow[]>(`SELECT ${COLUMNS} FROM cairn.accounts WHERE user_id = $1`, [
      userId,
    ]);
    return toAccount(rows[0]);
  }

  /** Platform emails are unique without regard to case (accounts_platform_email). */
  @SqlSnapshot({ params: ['ops@example.com'] })
  async findPlatformByEmail(email: string): Promise<Account | undefined> {
    const rows = await this.dataSource.query<AccountRow[]>(
      `SELECT ${COLUMNS} FROM cairn.accounts WHERE user_id IS NULL AND lower(email) = lower($1)`,
      [email],
    );
    return toAccount(rows[0]);
  }

  @SqlSnapshot({ params: [EX.newId, '$argon2id$v=19$m=19456,t=2,p=1$…'] })
  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.dataSource.query(`UPDATE cairn.accounts SET password_hash = $2, updated_at = now() WHERE id = $1`, [
      id,
      passwordHash,
    ]);
  }

  /** Starts (or restarts) an enrolment; the enabled secret, if any, stays until the new one is confirmed. */
  @SqlSnapshot({ params: [EX.newId, Buffer.alloc(8, 1)] })
  async setPendingTotp(id: string, sealed: Buffer): Promise<void> {
    await this.dataSource.query(`UPDATE cairn.accounts SET totp_pending = $2, updated_at = now() WHERE id = $1`, [
      id,
      sealed,
    ]);
  }

  /** The pending secret becomes the enabled one; `step` (the code just used) cannot be used again. */
  @SqlSnapshot({ params: [EX.newId, 59_000_000] })
  async enableTotp(id: string, step: number): Promise<boolean> {
    const rows = await queryReturning(
      this.dataSource,
      `UPDATE cairn.accounts SET totp_secret = totp_pending, totp_pending = NULL, totp_last_step = $2, updated_at = now()
       WHERE id = $1 AND totp_pending IS NOT NULL RETURNING id`,
      [id, step],
    );
    return rows.length > 0;
  }

  @SqlSnapshot({ params: [EX.newId] })
  async disableTotp(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE cairn.accounts SET totp_secret = NULL, totp_pending = NULL, totp_last_step = NULL, updated_at = now()
       WHERE id = $1`,
      [id],
    );
  }

  /**
   * Spends a TOTP time step: true only for a step later than any used before, so a code seen
   * once (over a shoulder, in a proxy log) cannot sign in again. Atomic across replicas.
   */
  @SqlSnapshot({ params: [EX.newId, 59_000_000] })
  async spendTotpStep(id: string, step: number): Promise<boolean> {
    const rows = await queryReturning(
      this.dataSource,
      `UPDATE cairn.accounts SET totp_last_step = $2
       WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [id, step],
    );
    return rows.length > 0;
  }

  /** Platform accounts in creation order after the account `afterId`: `limit` and one more (is there a next page). */
  @SqlSnapshot({ params: [50, EX.newId] })
  async listPlatform(limit: number, afterId?: string): Promise<PlatformAccountRecord[]> {
    const rows = await this.dataSource.query<DatedRow[]>(
      `SELECT ${COLUMNS}, created_at FROM cairn.accounts a
       WHERE a.user_id IS NULL
         AND ($2::uuid IS NULL OR (a.created_at, a.id) > (SELECT c.created_at, c.id FROM cairn.accounts c WHERE c.id = $2))
       ORDER BY a.created_at, a.id
       LIMIT $1`,
      [limit + 1, afterId ?? null],
    );
    return rows.map((row) => toRecord(row) as PlatformAccountRecord);
  }

  /**
   * Disables a platform account unless it is the last enabled one (LastPlatformAccountError);
   * undefined when there is no such platform account. Every enabled platform account is locked
   * first, in one order, so two operators disabling each other at once cannot leave none.
   */
  @SqlSnapshot({ params: [EX.newId] })
  disablePlatform(id: string): Promise<PlatformAccountRecord | undefined> {
    return this.dataSource.transaction(async (manager: EntityManager) => {
      const enabled = await manager.query<{ id: string }[]>(
        `SELECT id FROM cairn.accounts WHERE user_id IS NULL AND disabled_at IS NULL ORDER BY id FOR UPDATE`,
      );
      if (enabled.length === 1 && enabled[0].id === id) throw new LastPlatformAccountError(id);
      const rows = await queryReturning<DatedRow>(
        manager,
        `UPDATE cairn.accounts
         SET disabled_at = coalesce(disabled_at, now()),
             updated_at = CASE WHEN disabled_at IS NULL THEN now() ELSE updated_at END
         WHERE id = $1 AND user_id IS NULL
         RETURNING ${COLUMNS}, created_at`,
        [id],
      );
      return toRecord(rows[0]);
    });
  }

  /** Enables a platform account (disabled or not); undefined when there is no such platform account. */
  @SqlSnapshot({ params: [EX.newId] })
  async enablePlatform(id: string): Promise<PlatformAccountRecord | undefined> {
    const rows = await queryReturning<DatedRow>(
      this.dataSource,
      `UPDATE cairn.accounts
       SET disabled_at = NULL, updated_at = CASE WHEN disabled_at IS NULL THEN updated_at ELSE now() END
       WHERE id = $1 AND user_id IS NULL
       RETURNING ${COLUMNS}, created_at`,
      [id],
    );
    return toRecord(rows[0]);
  }
}
