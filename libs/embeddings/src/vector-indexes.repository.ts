import { Injectable } from '@nestjs/common';
import { queryWithoutStatementTimeout, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { quotedSchema, schemaNameFor, TenantConnections } from '@cairn/tenancy';

/**
 * The partial HNSW indexes of tenant schemas, on the pool of the tenant's cluster (TenantConnections): CREATE INDEX CONCURRENTLY
 * cannot run inside a transaction, so these statements are schema-qualified instead of relying
 * on a tenant transaction's search_path. Identifiers come from VectorIndexes, never from input.
 */
@Injectable()
export class VectorIndexesRepository {
  constructor(private readonly connections: TenantConnections) {}

  /** Whether the index exists and is valid; null when there is none. */
  @SqlSnapshot({ params: [schemaNameFor(EX.tenantId), 'memories_embedding_nomic_embed_text'] })
  async validity(schema: string, name: string): Promise<{ valid: boolean } | null> {
    const dataSource = await this.connections.dataSourceOfSchema(schema);
    const [existing] = await dataSource.query<{ valid: boolean }[]>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2`,
      [schema, name],
    );
    return existing ?? null;
  }

  @SqlSnapshot({ params: [schemaNameFor(EX.tenantId), 'memories_embedding_nomic_embed_text'] })
  async drop(schema: string, name: string): Promise<void> {
    const dataSource = await this.connections.dataSourceOfSchema(schema);
    await dataSource.query(`DROP INDEX CONCURRENTLY IF EXISTS ${quotedSchema(schema)}."${name}"`);
  }

  /**
   * On exactly the expression and predicate the semantic ranker uses. Building an HNSW graph over
   * a large tenant takes minutes (100k vectors of 384 dimensions: about two on two cores), far past
   * the pool's statement timeout, so the build runs on a connection of its own with no timeout.
   */
  @SqlSnapshot({
    params: [schemaNameFor(EX.tenantId), EX.corpusTable, 'memories_embedding_nomic_embed_text', EX.modelId, 768],
  })
  async create(schema: string, table: string, name: string, modelId: string, dims: number): Promise<void> {
    await queryWithoutStatementTimeout(
      await this.connections.maintenanceTarget(schema),
      `CREATE INDEX CONCURRENTLY IF NOT EXISTS "${name}" ON ${quotedSchema(schema)}.${table}
         USING hnsw ((embedding::public.vector(${dims})) public.vector_cosine_ops)
         WHERE embedding_model = '${modelId}'`,
    );
  }
}
