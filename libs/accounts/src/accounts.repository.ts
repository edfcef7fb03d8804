import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';
import { returning } from './update-returning.sql';

const UNIQUE_VIOLATION = '23505';

export class DuplicatePlatformEmailError extends Error {}

/** A person's credentials: a tenant user's (`userId`), or a platform operator's (`email`, `name`). */
export interface Account {
  readonly id: string;
  readonly tenantId: string | null;
  readonly userId: string | null;
  /** Platform accounts only: a tenant account's email and name are its user's. */
  readonly email: string | null;
  readonly name: string | null;
  readonly passwordHash: string | null;
  /** Sealed (tenant data key); null when no second factor is enabled. */
  readonly totpSecret: Buffer | null;
  /** Sealed secret of an enrolment not yet confirmed with a code. */
  readonly totpPending: Buffer | null;
  readonly disabledAt: Date | null;
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
    const rows = await returning(
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
    const rows = await returning(
      this.dataSource,
      `UPDATE cairn.accounts SET totp_last_step = $2
       WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
      [id, step],
    );
    return rows.length > 0;
  }
}
