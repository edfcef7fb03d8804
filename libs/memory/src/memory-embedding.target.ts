import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  type ComputedEmbedding,
  type EmbeddingModel,
  type EmbeddingTargetHandler,
  EmbeddingTargets,
  type MissingOptions,
  type PendingEmbedding,
  toVectorLiteral,
} from '@cairn/embeddings';
import { TenantDb } from '@cairn/tenancy';
import { memoryEmbeddingText } from './memory-row';

/** How the worker embeds memories: content plus the agent's expansion keywords. */
@Injectable()
export class MemoryEmbeddingTarget implements EmbeddingTargetHandler, OnModuleInit {
  constructor(
    private readonly targets: EmbeddingTargets,
    private readonly db: TenantDb,
  ) {}

  onModuleInit(): void {
    this.targets.register('memory', this);
  }

  async pending(ids: readonly string[], model: EmbeddingModel): Promise<PendingEmbedding[]> {
    const rows = await this.db.query<{ id: string; content: string; keywords: string[]; content_hash: string }>(
      `SELECT id, content, keywords, content_hash FROM memories
       WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL
         AND (embedding_model IS DISTINCT FROM $2 OR embedded_hash IS DISTINCT FROM content_hash)`,
      [ids, model.id],
    );
    return rows.map((row) => ({
      id: row.id,
      text: memoryEmbeddingText(row.content, row.keywords),
      contentHash: row.content_hash,
    }));
  }

  async store(vectors: readonly ComputedEmbedding[], model: EmbeddingModel): Promise<number> {
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
        model.id,
      ],
    );
    return rows.length;
  }

  async missing(model: EmbeddingModel, options: MissingOptions): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM memories
       WHERE deleted_at IS NULL AND (embedding_model IS DISTINCT FROM $1 OR embedded_hash IS DISTINCT FROM content_hash)
         AND ($2::uuid IS NULL OR id > $2::uuid) AND updated_at < now() - make_interval(secs => $3)
       ORDER BY id LIMIT $4`,
      [model.id, options.after, options.settledSeconds, options.limit],
    );
    return rows.map((row) => row.id);
  }
}
