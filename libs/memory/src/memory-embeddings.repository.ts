import { Injectable } from '@nestjs/common';
import { type ComputedEmbedding, type MissingOptions, toVectorLiteral } from '@cairn/embeddings';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';

/** The table memories' vectors live in: the embedding worker builds each active model's HNSW index on it. */
export const MEMORY_TABLE = 'memories';

/** A memory's embeddable text as stored: content, expansion keywords and their hash. */
export interface EmbeddableMemory {
  readonly id: string;
  readonly content: string;
  readonly keywords: string[];
  readonly contentHash: string;
}

/** Vectors of memories for the embedding worker (MemoryEmbeddingTarget); inside a tenant transaction. */
@Injectable()
export class MemoryEmbeddingsRepository {
  constructor(private readonly db: TenantDb) {}

  /** Of `ids`, the live memories without a vector of `modelId` for their current content. */
  @SqlSnapshot({ params: [[EX.memoryId], EX.modelId] })
  async pending(ids: readonly string[], modelId: string): Promise<EmbeddableMemory[]> {
    const rows = await this.db.query<{ id: string; content: string; keywords: string[]; content_hash: string }>(
      `SELECT id, content, keywords, content_hash FROM memories
       WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL
         AND (embedding_model IS DISTINCT FROM $2 OR embedded_hash IS DISTINCT FROM content_hash)`,
      [ids, modelId],
    );
    return rows.map((row) => ({
      id: row.id,
      content: row.content,
      keywords: row.keywords,
      contentHash: row.content_hash,
    }));
  }

  /** Stores vectors whose content hash still matches the row; returns how many were stored. */
  @SqlSnapshot({
    params: [[{ id: EX.memoryId, contentHash: EX.contentHash, vector: new Float32Array(768) }], EX.modelId],
  })
  async store(vectors: readonly ComputedEmbedding[], modelId: string): Promise<number> {
    if (vectors.length === 0) return 0;
    // Wrapped in a CTE: TypeORM returns [rows, count] for a bare UPDATE … RETURNING.
    const rows = await this.db.query<{ id: string }>(
      `WITH stored AS (
         UPDATE memories m SET embedding = u.vector::vector, embedding_model = $4, embedded_hash = u.hash, embedded_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS u(id, vector, hash)
         WHERE m.id = u.id AND m.content_hash = u.hash
         RETURNING m.id
       )
       SELECT id FROM stored`,
      [
        vectors.map((v) => v.id),
        vectors.map((v) => toVectorLiteral(v.vector)),
        vectors.map((v) => v.contentHash),
        modelId,
      ],
    );
    return rows.length;
  }

  /** Ids of live memories lacking a current vector of `modelId`, settled, in id order after `after`. */
  @SqlSnapshot({ params: [EX.modelId, { after: null, limit: 100, settledSeconds: 30 }] })
  async missing(modelId: string, options: MissingOptions): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM memories
       WHERE deleted_at IS NULL AND (embedding_model IS DISTINCT FROM $1 OR embedded_hash IS DISTINCT FROM content_hash)
         AND ($2::uuid IS NULL OR id > $2::uuid) AND updated_at < now() - make_interval(secs => $3)
       ORDER BY id LIMIT $4`,
      [modelId, options.after, options.settledSeconds, options.limit],
    );
    return rows.map((row) => row.id);
  }
}
