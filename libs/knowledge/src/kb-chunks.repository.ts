import { Injectable } from '@nestjs/common';
import { type PendingEmbedding } from '@cairn/embeddings';
import { corpusQuery, type CorpusQuery } from '@cairn/search';
import { ProjectResolver } from '@cairn/projects';
import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type RetentionTier, type SourceType } from './contract/kb.types';
import { KB_CHUNKS_CORPUS, liveDocument } from './kb-corpus.sql';

/** The table chunks' vectors live in: the embedding worker builds each active model's HNSW index on it. */
export const KB_CHUNKS_TABLE = 'kb_chunks';

export interface NewChunk {
  readonly id: string;
  readonly documentId: string;
  readonly projectId: string;
  readonly ordinal: number;
  readonly content: string;
  readonly contentHash: string;
}

export interface StoredVector {
  readonly id: string;
  readonly contentHash: string;
  /** pgvector text form. */
  readonly literal: string;
}

/** A ranked chunk with what a result shows about it. */
export interface ChunkHit {
  readonly chunkId: string;
  readonly documentId: string;
  readonly project: string;
  readonly source: string;
  readonly title: string | null;
  readonly sourceType: SourceType;
  readonly retentionTier: RetentionTier;
  readonly ordinal: number;
  readonly text: string;
}

/** Knowledge-base chunks of the current tenant; every call runs inside a tenant transaction. */
@Injectable()
export class KbChunksRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  /** All chunks of a document in one statement. */
  @SqlSnapshot({
    params: [
      [
        {
          id: EX.chunkId,
          documentId: EX.documentId,
          projectId: EX.projectId,
          ordinal: 0,
          content: 'Deploys run through Helm.',
          contentHash: EX.contentHash,
        },
      ],
    ],
  })
  async insertMany(chunks: readonly NewChunk[]): Promise<void> {
    if (chunks.length === 0) return;
    await this.db.query(
      `INSERT INTO kb_chunks (id, document_id, project_id, ordinal, content, content_hash)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[], $5::text[], $6::text[])`,
      [
        chunks.map((chunk) => chunk.id),
        chunks.map((chunk) => chunk.documentId),
        chunks.map((chunk) => chunk.projectId),
        chunks.map((chunk) => chunk.ordinal),
        chunks.map((chunk) => chunk.content),
        chunks.map((chunk) => chunk.contentHash),
      ],
    );
  }

  /** The chunks of live documents of the given projects, as a corpus for HybridSearch: a value. */
  @NoSqlSnapshot(
    'returns the corpus as a value: search renders its condition inside the ranking statements (libs/search/sql, libs/knowledge/sql/kb-corpus.sql)',
  )
  corpus(projectIds: readonly string[]): CorpusQuery {
    return corpusQuery(KB_CHUNKS_CORPUS, { projectIds });
  }

  /** The chunks behind ranked ids, in no particular order (the caller keeps rank order). */
  @SqlSnapshot({ params: [[EX.chunkId]] })
  async hydrate(ids: readonly string[]): Promise<ChunkHit[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.query<Omit<ChunkHit, 'project'> & { projectId: string }>(
      `SELECT c.id AS "chunkId", c.document_id AS "documentId", c.project_id AS "projectId", d.source, d.title,
              d.source_type AS "sourceType", d.retention_tier AS "retentionTier", c.ordinal, c.content AS text
       FROM kb_chunks c
       JOIN kb_documents d ON d.id = c.document_id
       WHERE c.id = ANY($1::uuid[])`,
      [ids],
    );
    // The project's slug is @cairn/projects' to say; every chunk belongs to a project.
    const slugs = await this.projects.slugsOf(rows.map((row) => row.projectId));
    return rows.flatMap(({ chunkId, documentId, projectId, ...rest }) => {
      const project = slugs.get(projectId);
      return project === undefined ? [] : [{ chunkId, documentId, project, ...rest }];
    });
  }

  /** A document's chunks in reading order, those after ordinal `after` (-1: from the first). */
  @SqlSnapshot({ params: [EX.projectId, EX.documentId, { after: -1, limit: 50 }] })
  ofDocument(
    projectId: string,
    documentId: string,
    page: { after: number; limit: number },
  ): Promise<{ id: string; ordinal: number; text: string }[]> {
    return this.db.query(
      `SELECT c.id, c.ordinal, c.content AS text FROM kb_chunks c
       WHERE c.project_id = $1 AND c.document_id = $2 AND c.ordinal > $3
       ORDER BY c.ordinal LIMIT $4`,
      [projectId, documentId, page.after, page.limit],
    );
  }

  /** Of `ids`, chunks of live documents without a vector of `modelId` for their content. */
  @SqlSnapshot({ params: [[EX.chunkId], EX.modelId] })
  pending(ids: readonly string[], modelId: string): Promise<PendingEmbedding[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.query<PendingEmbedding>(
      `SELECT c.id, c.content AS text, c.content_hash AS "contentHash"
       FROM kb_chunks c
       WHERE c.id = ANY($1::uuid[]) AND ${liveDocument('c')}
         AND (c.embedding_model IS DISTINCT FROM $2 OR c.embedded_hash IS DISTINCT FROM c.content_hash)
       ORDER BY c.document_id, c.ordinal`,
      [ids, modelId],
    );
  }

  /** Writes vectors in one statement, only where the chunk still has the content they were made from. */
  @SqlSnapshot({ params: [[{ id: EX.chunkId, contentHash: EX.contentHash, literal: '[0.1,0.2,0.3]' }], EX.modelId] })
  async store(vectors: readonly StoredVector[], modelId: string): Promise<number> {
    if (vectors.length === 0) return 0;
    const rows = await this.db.query<{ n: number }>(
      `WITH updated AS (
         UPDATE kb_chunks c
         SET embedding = v.literal::vector, embedding_model = $4, embedded_hash = v.content_hash, embedded_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS v(id, content_hash, literal)
         WHERE c.id = v.id AND c.content_hash = v.content_hash
         RETURNING 1)
       SELECT count(*)::int AS n FROM updated`,
      [
        vectors.map((vector) => vector.id),
        vectors.map((vector) => vector.contentHash),
        vectors.map((v) => v.literal),
        modelId,
      ],
    );
    return rows[0]?.n ?? 0;
  }

  /** Chunks of live documents lacking a vector of `modelId`, in id order after `after`. */
  @SqlSnapshot({ params: [EX.modelId, { after: null, limit: 100, settledSeconds: 30 }] })
  async missing(
    modelId: string,
    options: { after: string | null; limit: number; settledSeconds: number },
  ): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT c.id FROM kb_chunks c
       WHERE c.embedding_model IS DISTINCT FROM $1 AND ${liveDocument('c')}
         AND ($2::uuid IS NULL OR c.id > $2::uuid) AND c.created_at < now() - make_interval(secs => $3)
       ORDER BY c.id LIMIT $4`,
      [modelId, options.after, options.settledSeconds, options.limit],
    );
    return rows.map((row) => row.id);
  }
}
