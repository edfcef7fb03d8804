import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { queryReturning, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

@Injectable()
export class PasswordLinksRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** A new link for the account; every older unused one is voided in the same statement. */
  @SqlSnapshot({
    params: [
      { id: EX.newId, accountId: EX.newId, tokenHash: Buffer.alloc(32, 7), createdBy: 'admin', expiresAt: EX.future },
    ],
  })
  async replace(link: {
    id: string;
    accountId: string;
    tokenHash: Buffer;
    createdBy: string;
    expiresAt: Date;
  }): Promise<void> {
    await this.dataSource.query(
      `WITH voided AS (
         UPDATE cairn.password_links SET used_at = now() WHERE account_id = $2 AND used_at IS NULL
       )
       INSERT INTO cairn.password_links (id, account_id, token_hash, created_by, expires_at)
       VALUES ($1, $2, $3, $4, $5)`,
      [link.id, link.accountId, link.tokenHash, link.createdBy, link.expiresAt],
    );
  }

  /** Uses the link with this hash if it is live: its account, exactly once across replicas. */
  @SqlSnapshot({ params: [Buffer.alloc(32, 7)] })
  async consume(tokenHash: Buffer): Promise<string | undefined> {
    const rows = await queryReturning<{ account_id: string }>(
      this.dataSource,
      `UPDATE cairn.password_links SET used_at = now()
       WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
       RETURNING account_id`,
      [tokenHash],
    );
    return rows[0]?.account_id;
  }
}
