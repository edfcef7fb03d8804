import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { assertSafeModelId, type EmbeddingModel } from './embedding-model';
import { EmbeddingTargets } from './embedding-targets.registry';
import { VectorIndexesRepository } from './vector-indexes.repository';

/**
 * One partial HNSW index per (table, model) in each tenant schema, on exactly the expression
 * and predicate the semantic ranker uses, for the table of every registered embedding target
 * (the owners name their tables: memory's memories, knowledge's kb_chunks). Built CONCURRENTLY on the shared pool (outside any
 * transaction, schema-qualified, so no search_path is involved) when a model becomes active
 * for a tenant; writes continue meanwhile.
 */
@Injectable()
export class VectorIndexes {
  private readonly logger = new Logger('VectorIndexes');

  constructor(
    private readonly indexes: VectorIndexesRepository,
    private readonly targets: EmbeddingTargets,
  ) {}

  async ensure(schema: string, model: EmbeddingModel): Promise<void> {
    const modelId = assertSafeModelId(model.id);
    const dims = Math.trunc(model.dimensions);
    for (const table of this.targets.tables()) {
      const name = indexName(table, modelId);
      const existing = await this.indexes.validity(schema, name);
      if (existing?.valid) continue;
      // A concurrent build that died leaves an invalid index behind: drop it and build again.
      if (existing) await this.indexes.drop(schema, name);
      this.logger.log({ msg: 'building vector index', schema, table, model: modelId });
      await this.indexes.create(schema, table, name, modelId, dims);
    }
  }
}

/** `<table>_embedding_<model>`, within PostgreSQL's 63-byte identifiers (hashed when longer). */
export function indexName(table: string, modelId: string): string {
  const name = `${table}_embedding_${modelId.replace(/[^a-z0-9]/g, '_')}`;
  if (name.length <= 63) return name;
  const digest = createHash('sha256').update(modelId).digest('hex').slice(0, 10);
  return `${name.slice(0, 52)}_${digest}`;
}
