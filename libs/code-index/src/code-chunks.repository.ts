import { Injectable } from '@nestjs/common';
import { type PendingEmbedding } from '@cairn/embeddings';
import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { corpusQuery, type CorpusQuery } from '@cairn/search';
import { TenantDb } from '@cairn/tenancy';
import { CODE_CHUNKS_CORPUS } from './code-corpus.sql';

/** The table passages' vectors live in: the embedding worker builds each active model's HNSW index on it. */
export const CODE_CHUNKS_TABLE = 'code_chunks';

export interface NewCodeChunk {
  readonly id: string;
  readonly ordinal: number;
  readonly startLine: number;
  readonly endLine: number;
  readonly content: string;
  readonly searchText: string;
  readonly contentHash: string;
}

export interface CodeChunkHit {
  readonly chunkId: string;
  readonly path: string;
  readonly language: string | null;
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly hash: string;
  readonly commit: string | null;
}

/** Passages of indexed code files; every call runs inside a tenant transaction. */
@Injectable()
export class CodeChunksRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot({
    params: [
      { fileId: EX.fileId, branchId: EX.branchId, projectId: EX.projectId },
      [
        {
          id: EX.newId,
          ordinal: 0,
          startLine: 1,
          endLine: 3,
          content: 'export function deploy() {}',
          searchText: 'export function deploy() {}',
          contentHash: EX.contentHash,
        },
      ],
    ],
  })
  async insert(
    owner: { fileId: string; branchId: string; projectId: string },
    chunks: readonly NewCodeChunk[],
  ): Promise<void> {
    if (chunks.length === 0) return;
    await this.db.query(
      `INSERT INTO code_chunks (id, file_id, branch_id, project_id, ordinal, start_line, end_line, content, search_text, content_hash)
       SELECT u.id, $1, $2, $3, u.ordinal, u.start_line, u.end_line, u.content, u.search_text, u.content_hash
       FROM unnest($4::uuid[], $5::int[], $6::int[], $7::int[], $8::text[], $9::text[], $10::text[])
         AS u(id, ordinal, start_line, end_line, content, search_text, content_hash)`,
      [
        owner.fileId,
        owner.branchId,
        owner.projectId,
        chunks.map((chunk) => chunk.id),
        chunks.map((chunk) => chunk.ordinal),
        chunks.map((chunk) => chunk.startLine),
        chunks.map((chunk) => chunk.endLine),
        chunks.map((chunk) => chunk.content),
        chunks.map((chunk) => chunk.searchText),
        chunks.map((chunk) => chunk.contentHash),
      ],
    );
  }

  /** The passages of one branch, as a corpus for HybridSearch: a value. */
  @NoSqlSnapshot(
    'returns the corpus as a value: search renders its condition inside the ranking statements (libs/search/sql)',
  )
  corpus(projectId: string, branchId: string): CorpusQuery {
    return corpusQuery(CODE_CHUNKS_CORPUS, { projectId, branchId });
  }

  /** The passages behind ranked ids, in no particular order (the caller keeps rank order). */
  @SqlSnapshot({ params: [[EX.chunkId]] })
  hydrate(ids: readonly string[]): Promise<CodeChunkHit[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.query<CodeChunkHit>(
      `SELECT c.id AS "chunkId", f.path, f.language, c.start_line AS "startLine", c.end_line AS "endLine",
              c.content AS text, f.content_hash AS hash, f.indexed_commit AS commit
       FROM code_chunks c JOIN code_files f ON f.id = c.file_id
       WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Of `ids`, passages without a vector of `modelId` for their content. */
  @SqlSnapshot({ params: [[EX.chunkId], EX.modelId] })
  pending(ids: readonly string[], modelId: string): Promise<PendingEmbedding[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.query<PendingEmbedding>(
      `SELECT c.id, c.content AS text, c.content_hash AS "contentHash" FROM code_chunks c
       WHERE c.id = ANY($1::uuid[])
         AND (c.embedding_model IS DISTINCT FROM $2 OR c.embedded_hash IS DISTINCT FROM c.content_hash)
       ORDER BY c.file_id, c.ordinal`,
      [ids, modelId],
    );
  }

  /** Writes vectors in one statement, only where the passage still has the content they were made from. */
  @SqlSnapshot({ params: [[{ id: EX.chunkId, contentHash: EX.contentHash, literal: '[0.1,0.2,0.3]' }], EX.modelId] })
  async store(
    vectors: readonly { id: string; contentHash: string; literal: string }[],
    modelId: string,
  ): Promise<number> {
    if (vectors.length === 0) return 0;
    const rows = await this.db.query<{ n: number }>(
      `WITH updated AS (
         UPDATE code_chunks c
         SET embedding = v.literal::vector, embedding_model = $4, embedded_hash = v.content_hash, embedded_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, content_hash, literal)
         WHERE c.id = v.id AND c.content_hash = v.content_hash
         RETURNING 1)
       SELECT count(*)::int AS n FROM updated`,
      [vectors.map((v) => v.id), vectors.map((v) => v.contentHash), vectors.map((v) => v.literal), modelId],
    );
    return rows[0]?.n ?? 0;
  }

  /** Passages lacking a vector of `modelId`, in id order after `after`. */
  @SqlSnapshot({ params: [EX.modelId, { after: null, limit: 100, settledSeconds: 30 }] })
  async missing(
    modelId: string,
    options: { after: string | null; limit: number; settledSeconds: number },
  ): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT c.id FROM code_chunks c
       WHERE c.embedding_model IS DISTINCT FROM $1
         AND ($2::uuid IS NULL OR c.id > $2::uuid) AND c.created_at < now() - make_interval(secs => $3)
       ORDER BY c.id LIMIT $4`,
      [modelId, options.after, options.settledSeconds, options.limit],
    );
    return rows.map((row) => row.id);
  }
}
