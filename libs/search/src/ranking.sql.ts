import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type SqlParams } from '@cairn/db';
import { type Corpus } from './contract/corpus';
import { keywordCtes } from './keyword-ranking.sql';
import { type RankingPlan } from './ranking.types';

/**
 * The whole ranking statement of a plan: the keyword and/or the semantic ranker's CTEs, their
 * rows under one UNION ALL (`list` says which ranker a row comes from). Parameters are added to
 * `params` in a fixed order (keyword first), so one plan shape over one corpus filter shape is
 * always the same text, prepared once per connection.
 */
export function rankingStatement(corpus: Corpus, params: SqlParams, plan: RankingPlan): string {
  const ctes: string[] = [];
  const parts: string[] = [];
  if (plan.keyword) {
    const { query, ...options } = plan.keyword;
    ctes.push(keywordCtes(corpus, params, query, options));
    parts.push('SELECT * FROM kw_out');
  }
  if (plan.semantic) {
    const { model, vector, limit, exact } = plan.semantic;
    ctes.push(vectorCte(corpus, model, vector, params, { limit, exact }));
    parts.push('SELECT * FROM vec_out');
  }
  return `WITH ${ctes.join(',')} ${parts.join(' UNION ALL ')}`;
}

/**
 * Semantic ranker: cosine distance on the model's own partial HNSW index
 * (`embedding::vector(dims)` where `embedding_model = '<id>'`); the literal model id and
 * dimension let the planner match that index. Pair with `hnsw.iterative_scan` so
 * filters do not starve the result. Owners clear a vector when its text changes, so the
 * model condition alone means "current": an extra column comparison here would wreck the
 * planner's row estimate and push it to a sequential scan. With `exact`, the ordering is
 * by score, which no index serves: every vector is compared (see VectorScanChoice). Returns
 * a CTE `vec_out` with the same columns as kw_out.
 */
export function vectorCte(
  corpus: Corpus,
  model: EmbeddingModel,
  vector: ArrayLike<number>,
  params: SqlParams,
  options: { readonly limit: number; readonly exact: boolean },
): string {
  const modelId = assertSafeModelId(model.id);
  const dims = Math.trunc(model.dimensions);
  const v = params.add(toVectorLiteral(vector));
  const distance = `c.embedding::vector(${dims}) <=> ${v}::vector(${dims})`;
  return `
  vec_out AS (
    SELECT 'semantic'::text AS list, c.id, (1 - (${distance}))::float8 AS score,
           ${corpus.signals}
    FROM ${corpus.table} c
    WHERE c.embedding_model = '${modelId}' AND ${corpus.where}
    ORDER BY ${options.exact ? 'score DESC, c.id' : distance}
    LIMIT ${params.add(Math.trunc(options.limit))}
  )`;
}

/**
 * How many of `table`'s rows carry a vector of `model`, counting no further than `maxRows + 1`:
 * enough to tell whether the corpus is small enough to rank exactly (VectorScanChoice)
 * without scanning a big one.
 */
export function vectorRowCount(table: string, model: EmbeddingModel, maxRows: number): string {
  return `SELECT count(*)::int AS n FROM (SELECT 1 FROM ${table} WHERE embedding_model = '${assertSafeModelId(model.id)}'
       LIMIT ${maxRows + 1}) s`;
}
