import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type Binder } from '@cairn/db';
import { type CorpusQuery } from './contract/corpus';
import { keywordCtes } from './keyword-ranking.sql';
import { type RankingPlan, type RenderedCorpus } from './ranking.types';

/**
 * The owner's corpus as one statement sees it: its condition rendered over `alias` with this
 * statement's parameters, first (so one filter shape is always one text), and the signal
 * columns it has, neutral constants for those it has not.
 */
export function renderCorpus(query: CorpusQuery, params: Binder, alias = 'c'): RenderedCorpus {
  const { definition, filter } = query;
  const { signals } = definition;
  return {
    table: definition.table,
    where: definition.condition(filter, params, alias),
    signals: [
      signals.importance ? 'c.importance' : 'NULL::smallint AS importance',
      signals.confidence ? 'c.confidence' : 'NULL::real AS confidence',
      signals.pinned ? 'c.pinned' : 'false AS pinned',
      'c.created_at',
    ].join(', '),
    termScopes: definition.termScopes(filter),
  };
}

/**
 * The whole ranking statement of a plan over `query`: the keyword and/or the semantic ranker's
 * CTEs, their rows under one UNION ALL (`list` says which ranker a row comes from). Parameters
 * are numbered in a fixed order (the owner's condition, then keyword, then semantic), so one
 * plan shape over one filter shape is always the same text, prepared once per connection.
 */
export function rankingStatement(query: CorpusQuery, params: Binder, plan: RankingPlan): string {
  const corpus = renderCorpus(query, params);
  const ctes: string[] = [];
  const parts: string[] = [];
  if (plan.keyword) {
    const { query: text, ...options } = plan.keyword;
    ctes.push(keywordCtes(corpus, params, text, options));
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
function vectorCte(
  corpus: RenderedCorpus,
  model: EmbeddingModel,
  vector: ArrayLike<number>,
  params: Binder,
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
