/**
 * The memories table's HNSW index at scale: dropped before the bulk load (inserting a million
 * vectors one graph entry at a time is the slow way), then built once with the definition the
 * tenant migration gave it (read back from pg_get_indexdef and checked to be identical after the
 * build), on a connection of its own with a maintenance_work_mem the graph fits into. The
 * baseline is the same build over a copy of a tenth of the vectors, in the same run.
 */
import { Client } from 'pg';
import { type DataSource } from 'typeorm';
import { indexName } from '@cairn/embeddings';
import { quotedSchema } from '@cairn/tenancy';

/** Per vector of 384 float32 dimensions in pgvector's in-memory HNSW graph (m = 16), with room to spare. */
const GRAPH_BYTES_PER_ROW = 3 * 1024;
const MIN_WORK_MEM_MB = 64;
/** Never ask a shared two-core machine's PostgreSQL for more than this. */
const MAX_WORK_MEM_MB = 8 * 1024;
const SAMPLE_TABLE = 'scale_index_sample';

export interface VectorIndexBuild {
  readonly rows: number;
  readonly seconds: number;
  readonly bytes: number;
  readonly maintenanceWorkMem: string;
  readonly parallelMaintenanceWorkers: string;
  /** PostgreSQL's notices during the build (pgvector says when the graph outgrew maintenance_work_mem). */
  readonly notices: string[];
}

/** maintenance_work_mem for building the graph of `rows` vectors: 3 KiB each, 64 MB to 8 GB. */
export function maintenanceWorkMemFor(rows: number): string {
  const mb = Math.ceil((rows * GRAPH_BYTES_PER_ROW) / (1024 * 1024));
  return `${Math.min(MAX_WORK_MEM_MB, Math.max(MIN_WORK_MEM_MB, mb))}MB`;
}

/** The definition of the tenant's built-in model's HNSW index on memories, then drops it. */
export async function dropMemoryVectorIndex(dataSource: DataSource, schema: string, modelId: string): Promise<string> {
  const name = indexName('memories', modelId);
  const [found] = await dataSource.query<{ definition: string }[]>(
    `SELECT pg_get_indexdef(c.oid) AS definition FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relname = $2`,
    [schema, name],
  );
  if (!found) throw new Error(`${schema}.${name} does not exist: has the tenant migration's HNSW index moved?`);
  if (!/ USING hnsw /.test(found.definition)) throw new Error(`${name} is not an HNSW index: ${found.definition}`);
  await dataSource.query(`DROP INDEX ${quotedSchema(schema)}."${name}"`);
  return found.definition;
}

/** Runs `definition` on its own connection (no statement timeout, maintenance_work_mem for `rows`). */
async function timedBuild(
  databaseUrl: string,
  definition: string,
  rows: number,
): Promise<Omit<VectorIndexBuild, 'bytes'>> {
  const client = new Client({ connectionString: databaseUrl });
  const notices: string[] = [];
  client.on('notice', (notice) => notices.push(notice.message ?? notice.name));
  await client.connect();
  try {
    const maintenanceWorkMem = maintenanceWorkMemFor(rows);
    await client.query(`SET statement_timeout = 0`);
    await client.query(`SET maintenance_work_mem = '${maintenanceWorkMem}'`);
    const workers = await client.query<{ value: string }>(
      `SELECT current_setting('max_parallel_maintenance_workers') AS value`,
    );
    const begin = performance.now();
    await client.query(definition);
    const seconds = (performance.now() - begin) / 1000;
    return {
      rows,
      seconds,
      maintenanceWorkMem,
      parallelMaintenanceWorkers: workers.rows[0]?.value ?? '?',
      notices,
    };
  } finally {
    await client.end();
  }
}

async function relationBytes(dataSource: DataSource, qualified: string): Promise<number> {
  const [size] = await dataSource.query<{ bytes: string }[]>(`SELECT pg_relation_size($1::regclass) AS bytes`, [
    qualified,
  ]);
  return Number(size?.bytes ?? 0);
}

/** Builds the dropped index again from its definition; fails unless PostgreSQL then reports the same one. */
export async function buildMemoryVectorIndex(
  dataSource: DataSource,
  databaseUrl: string,
  schema: string,
  modelId: string,
  definition: string,
  rows: number,
): Promise<VectorIndexBuild> {
  const build = await timedBuild(databaseUrl, definition, rows);
  const name = indexName('memories', modelId);
  const [rebuilt] = await dataSource.query<{ definition: string }[]>(
    `SELECT pg_get_indexdef($1::regclass) AS definition`,
    [`${quotedSchema(schema)}."${name}"`],
  );
  if (rebuilt?.definition !== definition) {
    throw new Error(`the rebuilt index differs from the migration's:\n  ${rebuilt?.definition}\n  ${definition}`);
  }
  return { ...build, bytes: await relationBytes(dataSource, `${quotedSchema(schema)}."${name}"`) };
}

/**
 * The baseline: the same index definition over a table holding the vectors of the first `rows`
 * memories (and nothing else), built with the same settings, then dropped.
 */
export async function buildSampleVectorIndex(
  dataSource: DataSource,
  databaseUrl: string,
  schema: string,
  definition: string,
  rows: number,
): Promise<VectorIndexBuild> {
  const table = `${quotedSchema(schema)}.${SAMPLE_TABLE}`;
  const match = /^CREATE INDEX (\S+) ON (\S+) USING (.*)$/s.exec(definition);
  if (!match?.[3]) throw new Error(`cannot read the index definition: ${definition}`);
  const sampleDefinition = `CREATE INDEX ${SAMPLE_TABLE}_hnsw ON ${table} USING ${match[3]}`;
  await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
  await dataSource.query(
    `CREATE TABLE ${table} AS SELECT embedding, embedding_model FROM ${quotedSchema(schema)}.memories
      ORDER BY id LIMIT ${Math.max(1, Math.floor(rows))}`,
  );
  try {
    const build = await timedBuild(databaseUrl, sampleDefinition, rows);
    return { ...build, bytes: await relationBytes(dataSource, `${quotedSchema(schema)}.${SAMPLE_TABLE}_hnsw`) };
  } finally {
    await dataSource.query(`DROP TABLE IF EXISTS ${table}`);
  }
}

export interface TableSizes {
  readonly heapBytes: number;
  readonly keywordIndexBytes: number;
  readonly totalBytes: number;
}

/** The memories heap, its GIN index on tsv, and everything together (indexes, TOAST). */
export async function memoryTableSizes(dataSource: DataSource, schema: string): Promise<TableSizes> {
  const table = `${quotedSchema(schema)}.memories`;
  const [sizes] = await dataSource.query<{ heap: string; gin: string; total: string }[]>(
    `SELECT pg_relation_size($1::regclass) AS heap, pg_relation_size($2::regclass) AS gin,
            pg_total_relation_size($1::regclass) AS total`,
    [table, `${quotedSchema(schema)}.memories_tsv`],
  );
  return {
    heapBytes: Number(sizes?.heap ?? 0),
    keywordIndexBytes: Number(sizes?.gin ?? 0),
    totalBytes: Number(sizes?.total ?? 0),
  };
}
