import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type KbDocument, type RetentionTier } from './contract/kb.types';

const COLUMNS = `d.id, d.project_id AS "projectId", d.source, d.title, d.source_type AS "sourceType",
  d.retention_tier AS "retentionTier", d.content_hash AS "contentHash", d.chunk_count AS "chunkCount",
  d.author_user_id AS "authorUserId", d.author_agent_id AS "authorAgentId", d.author_token_id AS "authorTokenId", d.created_at AS "createdAt",
  d.expires_at AS "expiresAt", d.metadata`;

export type RetentionDays = Readonly<Record<RetentionTier, number>>;

export interface NewDocument extends Omit<KbDocument, 'createdAt' | 'expiresAt'> {
  readonly retentionDays: number;
}

/** Knowledge-base documents of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class KbDocumentsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Serialises indexing of one source in one project until the transaction ends, so two
   * versions indexed at once cannot both survive and one content cannot be inserted twice.
   */
  @SqlSnapshot({ params: [EX.projectId, 'https://example.com/docs/deploy'] })
  async lockSource(projectId: string, source: string): Promise<void> {
    await this.db.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', [projectId, source]);
  }

  /**
   * The document holding exactly this content of this source, if any. Indexing it again
   * says it is still in use, so its retention restarts from now: kept the tier's days from now.
   */
  @SqlSnapshot({
    params: [
      EX.projectId,
      'https://example.com/docs/deploy',
      EX.contentHash,
      { external: 14, internal: 30, summary: 365 },
    ],
  })
  async renewExisting(
    projectId: string,
    source: string,
    contentHash: string,
    days: RetentionDays,
  ): Promise<KbDocument | undefined> {
    // Wrapped in a CTE: TypeORM answers a bare UPDATE with [rows, count] instead of rows.
    const rows = await this.db.query<KbDocument>(
      `WITH d AS (
         UPDATE kb_documents u
         SET retained_from = now(), expires_at = now() + make_interval(days => CASE u.retention_tier
           WHEN 'external' THEN $4::int WHEN 'internal' THEN $5::int ELSE $6::int END)
         WHERE u.project_id = $1 AND u.source = $2 AND u.content_hash = $3
         RETURNING u.*)
       SELECT ${COLUMNS} FROM d`,
      [projectId, source, contentHash, days.external, days.internal, days.summary],
    );
    return rows[0];
  }

  @SqlSnapshot({
    params: [
      {
        id: EX.newId,
        projectId: EX.projectId,
        source: 'https://example.com/docs/release',
        title: 'Releasing',
        sourceType: 'external',
        retentionTier: 'external',
        contentHash: EX.contentHash,
        chunkCount: 1,
        authorUserId: EX.userId,
        authorAgentId: EX.agentId,
        authorTokenId: EX.tokenId,
        metadata: { fetchedAt: '2026-01-02T03:04:05.000Z' },
        retentionDays: 14,
      },
    ],
  })
  async insert(doc: NewDocument): Promise<KbDocument> {
    const rows = await this.db.query<KbDocument>(
      `INSERT INTO kb_documents AS d (id, project_id, source, title, source_type, retention_tier, content_hash,
         chunk_count, author_user_id, author_agent_id, author_token_id, expires_at, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now() + make_interval(days => $12::int), $13::jsonb)
       RETURNING ${COLUMNS}`,
      [
        doc.id,
        doc.projectId,
        doc.source,
        doc.title,
        doc.sourceType,
        doc.retentionTier,
        doc.contentHash,
        doc.chunkCount,
        doc.authorUserId,
        doc.authorAgentId,
        doc.authorTokenId,
        doc.retentionDays,
        JSON.stringify(doc.metadata),
      ],
    );
    return rows[0];
  }

  /** Deletes every other version of the source (their chunks go by cascade); returns how many. */
  @SqlSnapshot({ params: [EX.projectId, 'https://example.com/docs/deploy', EX.documentId] })
  async deleteOtherVersions(projectId: string, source: string, keepId: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM kb_documents WHERE project_id = $1 AND source = $2 AND id <> $3 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [projectId, source, keepId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Newest first; `afterId` is the last id of the previous page. Fetches one extra row to tell if more follow. */
  @SqlSnapshot(
    { name: 'first page', params: [EX.projectId, 20] },
    { name: 'after a document', params: [EX.projectId, 20, EX.documentId] },
  )
  list(projectId: string, limit: number, afterId?: string): Promise<KbDocument[]> {
    const after = afterId
      ? `AND (d.created_at, d.id) < (SELECT a.created_at, a.id FROM kb_documents a WHERE a.id = $3 AND a.project_id = $1)`
      : '';
    return this.db.query<KbDocument>(
      `SELECT ${COLUMNS} FROM kb_documents d WHERE d.project_id = $1 ${after}
       ORDER BY d.created_at DESC, d.id DESC LIMIT $2`,
      afterId ? [projectId, limit + 1, afterId] : [projectId, limit + 1],
    );
  }

  /** With `forUpdate`, the row stays locked until the transaction ends (a delete decided on it). */
  @SqlSnapshot(
    { name: 'read', params: [EX.projectId, EX.documentId] },
    { name: 'for update', params: [EX.projectId, EX.documentId, { forUpdate: true }] },
  )
  async find(projectId: string, id: string, options: { forUpdate?: boolean } = {}): Promise<KbDocument | undefined> {
    const rows = await this.db.query<KbDocument>(
      `SELECT ${COLUMNS} FROM kb_documents d WHERE d.project_id = $1 AND d.id = $2${options.forUpdate ? ' FOR UPDATE' : ''}`,
      [projectId, id],
    );
    return rows[0];
  }

  /** Every version of a source; call under `lockSource` so none appears meanwhile. */
  @SqlSnapshot({ params: [EX.projectId, 'https://example.com/docs/deploy'] })
  listBySource(projectId: string, source: string): Promise<KbDocument[]> {
    return this.db.query<KbDocument>(
      `SELECT ${COLUMNS} FROM kb_documents d WHERE d.project_id = $1 AND d.source = $2 ORDER BY d.id`,
      [projectId, source],
    );
  }

  @SqlSnapshot({ params: [EX.projectId, EX.documentId] })
  async delete(projectId: string, id: string): Promise<boolean> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (DELETE FROM kb_documents WHERE project_id = $1 AND id = $2 RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [projectId, id],
    );
    return (rows[0]?.n ?? 0) > 0;
  }

  /**
   * Dates every document's expiry by the retention in force: `days` of its tier after it was last
   * indexed (`retained_from`), so a tenant's new retention, or the installation's, reaches the
   * documents indexed before it. Only rows whose expiry moves are written. Returns how many moved.
   */
  @SqlSnapshot({
    params: [
      { external: 14, internal: 30, summary: 365 },
      { projectId: EX.projectId, tier: 'external' },
    ],
  })
  async alignExpiry(days: RetentionDays, filter: { projectId?: string; tier?: RetentionTier }): Promise<number> {
    const until = `retained_from + make_interval(days => CASE retention_tier
      WHEN 'external' THEN $1::int WHEN 'internal' THEN $2::int ELSE $3::int END)`;
    const rows = await this.db.query<{ n: number }>(
      `WITH moved AS (
         UPDATE kb_documents SET expires_at = ${until}
         WHERE ($4::uuid IS NULL OR project_id = $4) AND ($5::text IS NULL OR retention_tier = $5)
           AND expires_at <> ${until}
         RETURNING 1)
       SELECT count(*)::int AS n FROM moved`,
      [days.external, days.internal, days.summary, filter.projectId ?? null, filter.tier ?? null],
    );
    return rows[0]?.n ?? 0;
  }

  /** Deletes expired documents (chunks by cascade); counts per tier. */
  @SqlSnapshot({ params: [{ projectId: EX.projectId, tier: 'external' }] })
  purgeExpired(filter: {
    projectId?: string;
    tier?: RetentionTier;
  }): Promise<{ tier: RetentionTier; documents: number; chunks: number }[]> {
    return this.db.query(
      `WITH gone AS (
         DELETE FROM kb_documents
         WHERE expires_at <= now() AND ($1::uuid IS NULL OR project_id = $1) AND ($2::text IS NULL OR retention_tier = $2)
         RETURNING retention_tier, chunk_count)
       SELECT retention_tier AS tier, count(*)::int AS documents, coalesce(sum(chunk_count), 0)::int AS chunks
       FROM gone GROUP BY retention_tier`,
      [filter.projectId ?? null, filter.tier ?? null],
    );
  }
}
