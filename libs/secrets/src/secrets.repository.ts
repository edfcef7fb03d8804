import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type SealedSecret, type SecretWriteContext } from './contract/secret-redaction.types';

export interface StoredSecret {
  /** The row's own id (a placeholder can have several rows: one per writer and source). */
  readonly id: string;
  readonly placeholderId: string;
  readonly type: string;
  readonly envelope: Buffer;
  readonly writerUserId: string | null;
  readonly writerAgentId: string | null;
  readonly writerTokenId: string;
  readonly projectId: string | null;
  readonly sourceTable: string;
  readonly sourceId: string;
  readonly createdAt: Date;
}

interface Row {
  id: string;
  placeholder_id: string;
  type: string;
  value_encrypted: Buffer;
  writer_user_id: string | null;
  writer_agent_id: string | null;
  writer_token_id: string;
  project_id: string | null;
  source_table: string;
  source_id: string;
  created_at: Date;
}

/** A sealed original as the re-encryption sweep needs it: where it is bound, and the envelope. */
export interface SealedRow {
  readonly id: string;
  readonly placeholderId: string;
  readonly envelope: Buffer;
}

/**
 * The data-key version an envelope names (bytes 1-2, big-endian; see @cairn/encryption's
 * envelope format), read in SQL so the sweep selects only what needs re-sealing.
 */
const KEY_VERSION = '(get_byte(value_encrypted, 1) * 256 + get_byte(value_encrypted, 2))';

/** The tenant's `secrets` table and its `secrets` setting; every call runs inside a tenant transaction. */
@Injectable()
export class SecretsRepository {
  constructor(private readonly db: TenantDb) {}

  /** Keeps each original once per placeholder, writer and place (a rewrite of the same text adds nothing). */
  @SqlSnapshot({
    params: [
      [
        {
          placeholderId: 'aws_access_key_1',
          type: 'aws_access_key',
          ruleId: 'aws-access-token',
          envelope: Buffer.alloc(64, 8),
        },
      ],
      {
        projectId: EX.projectId,
        sourceTable: EX.sourceTable,
        sourceId: EX.memoryId,
        writer: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
      },
    ],
  })
  async insert(sealed: readonly SealedSecret[], context: SecretWriteContext): Promise<void> {
    if (sealed.length === 0) return;
    const { projectId, sourceTable, sourceId, writer } = context;
    await this.db.query(
      `INSERT INTO secrets (id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
                            writer_token_id, project_id, source_table, source_id)
       SELECT id, placeholder_id, type, rule_id, value_encrypted, $6, $7, $8, $9, $10, $11
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bytea[])
              AS s(id, placeholder_id, type, rule_id, value_encrypted)
       ON CONFLICT (placeholder_id, writer_token_id, source_table, source_id) DO NOTHING`,
      [
        sealed.map(() => randomUUID()),
        sealed.map((secret) => secret.placeholderId),
        sealed.map((secret) => secret.type),
        sealed.map((secret) => secret.ruleId),
        sealed.map((secret) => secret.envelope),
        writer.userId,
        writer.agentId,
        writer.tokenId,
        projectId,
        sourceTable,
        sourceId,
      ],
    );
  }

  /**
   * Copies the originals kept for one source to another (text that moves, e.g. an evicted
   * working-memory entry becoming a memory), with their writers; the envelopes stay valid, as
   * they are bound to the placeholder, not to the source.
   */
  @SqlSnapshot({
    params: [
      { sourceTable: EX.sourceTable, sourceId: EX.memoryId },
      { projectId: EX.projectId, sourceTable: EX.sourceTable, sourceId: EX.newMemoryId },
    ],
  })
  async copySource(
    from: { sourceTable: string; sourceId: string },
    to: Omit<SecretWriteContext, 'writer'>,
  ): Promise<void> {
    await this.db.query(
      `INSERT INTO secrets (id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
                            writer_token_id, project_id, source_table, source_id, created_at)
       SELECT gen_random_uuid(), placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
              writer_token_id, $3, $4, $5, created_at
         FROM secrets WHERE source_table = $1 AND source_id = $2
       ON CONFLICT (placeholder_id, writer_token_id, source_table, source_id) DO NOTHING`,
      [from.sourceTable, from.sourceId, to.projectId, to.sourceTable, to.sourceId],
    );
  }

  /** The copies of a placeholder's original written in this project or tenant-wide, oldest first. */
  @SqlSnapshot({ params: ['aws_access_key_1', EX.projectId] })
  async findByPlaceholder(placeholderId: string, projectId: string): Promise<StoredSecret[]> {
    const rows = await this.db.query<Row>(
      `SELECT id, placeholder_id, type, value_encrypted, writer_user_id, writer_agent_id, writer_token_id, project_id,
              source_table, source_id, created_at
         FROM secrets
        WHERE placeholder_id = $1 AND (project_id = $2 OR project_id IS NULL)
        ORDER BY created_at, id`,
      [placeholderId, projectId],
    );
    return rows.map(toStored);
  }

  /** Every original kept for these rows of `sourceTable` (a backup of them), by row, oldest first. */
  @SqlSnapshot({ params: [EX.sourceTable, [EX.memoryId, EX.otherMemoryId]] })
  async findBySources(
    sourceTable: string,
    sourceIds: readonly string[],
  ): Promise<(StoredSecret & { ruleId: string })[]> {
    if (sourceIds.length === 0) return [];
    const rows = await this.db.query<Row & { rule_id: string }>(
      `SELECT id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id, writer_token_id,
              project_id, source_table, source_id, created_at
         FROM secrets
        WHERE source_table = $1 AND source_id = ANY($2::text[])
        ORDER BY source_id, created_at, id`,
      [sourceTable, sourceIds],
    );
    return rows.map((row) => ({ ...toStored(row), ruleId: row.rule_id }));
  }

  /**
   * Puts a re-sealed envelope in place of the one it was made from, only if the row still holds
   * that one (a row rewritten meanwhile keeps its newer value). True when the row was updated.
   */
  @SqlSnapshot({ params: [EX.secretId, Buffer.alloc(64, 8), Buffer.alloc(64, 9)] })
  async replaceEnvelope(id: string, previous: Buffer, next: Buffer): Promise<boolean> {
    // In a CTE: TypeORM answers a bare UPDATE … RETURNING with [rows, count].
    const rows = await this.db.query<{ id: string }>(
      `WITH updated AS (UPDATE secrets SET value_encrypted = $3 WHERE id = $1 AND value_encrypted = $2 RETURNING id)
       SELECT id FROM updated`,
      [id, previous, next],
    );
    return rows.length > 0;
  }

  /**
   * Rows sealed under a data-key version below `version`, in id order after `afterId`: the
   * re-encryption sweep's batch. A sequential scan of the table, run by a background job.
   */
  @SqlSnapshot({ params: [2, null, 100] })
  async sealedBefore(version: number, afterId: string | null, limit: number): Promise<SealedRow[]> {
    return this.db.query<SealedRow>(
      `SELECT id, placeholder_id AS "placeholderId", value_encrypted AS envelope
         FROM secrets
        WHERE ${KEY_VERSION} < $1 AND ($2::uuid IS NULL OR id > $2::uuid)
        ORDER BY id
        LIMIT $3`,
      [version, afterId, limit],
    );
  }

  /** How many rows each data-key version seals, lowest version first. */
  @SqlSnapshot({ params: [] })
  async countByKeyVersion(): Promise<{ version: number; envelopes: number }[]> {
    return this.db.query<{ version: number; envelopes: number }>(
      `SELECT ${KEY_VERSION} AS version, count(*)::int AS envelopes FROM secrets GROUP BY 1 ORDER BY 1`,
    );
  }
}

function toStored(row: Row): StoredSecret {
  return {
    id: row.id,
    placeholderId: row.placeholder_id,
    type: row.type,
    envelope: row.value_encrypted,
    writerUserId: row.writer_user_id,
    writerAgentId: row.writer_agent_id,
    writerTokenId: row.writer_token_id,
    projectId: row.project_id,
    sourceTable: row.source_table,
    sourceId: row.source_id,
    createdAt: row.created_at,
  };
}
