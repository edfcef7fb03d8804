import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { quotedSchema } from '@cairn/tenancy';
import { type DataSource } from 'typeorm';
import { assertSafeModelId, type EmbeddingModel } from './embedding-model';

const TABLES = ['memories', 'kb_chunks'] as const;

/**
 * One partial HNSW index per (table, model) in each tenant schema, on exactly the expression
 * and predicate the semantic ranker uses. Built CONCURRENTLY on the shared pool (outside any
 * transaction, schema-qualified, so no search_path is involved) when a model becomes active
 * for a tenant; writes continue meanwhile.
 */
@Injectable()
export class VectorIndexes {
  private readonly logger = new Logger('VectorIndexes');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ensure(schema: string, model: EmbeddingModel): Promise<void> {
    const modelId = assertSafeModelId(model.id);
    const dims = Math.trunc(model.dimensions);
    for (const table of TABLES) {
      const name = indexName(table, modelId);
      const [existing] = await this.dataSource.query<{ valid: boolean }[]>(
        `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
        [schema, name],
      );
      if (existing?.valid) continue;
      // A concurrent build that died leaves an invalid index behind: drop it and build again.
      if (existing) await this.dataSource.query(`DROP INDEX CONCURRENTLY IF EXISTS ${quotedSchema(schema)}."${name}"`);
      this.logger.log({ msg: 'building vector index', schema, table, model: modelId });
      await this.dataSource.query(
        `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON ${quotedSchema(schema)}.${table}
         USING hnsw ((embedding::public.vector(${dims})) public.vector_cosine_ops)
         WHERE embedding_model = '${modelId}'`,
      );
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
