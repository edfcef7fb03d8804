import { assertSafeModelId, type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { type Binder } from '@cairn/db';
import { type CorpusQuery } from './contract/corpus';
import { keywordTermCtes } from './keyword-ranking.sql';
import { renderCorpus } from './ranking.sql';

export interface RelevancePlan {
  /** The text the rankers got. */
  readonly query: string;
  /** Names and identifiers of the query (queryEntities): weighed as the keyword ranker weighs them. */
  readonly entities: string;
  readonly maxTerms: number;
  /** The ranked items to score. */
  readonly ids: readonly string[];
  /** The active model and the query's vector; absent when the search ran by keyword. */
  readonly semantic?: { readonly model: EmbeddingModel; readonly vector: ArrayLike<number> };
}

/**
 * The absolute relevance signals of ranked items, one row per item (`id, coverage, cosine`):
 *
 * - `coverage`: the share of the query's IDF mass that the item contains, 0–1 (Σ idf of the
 *   query terms it matches / Σ idf of all its terms). The terms, their IDF and the entity
 *   weighting are the keyword ranker's own CTEs (`kw_terms`), so both read one vocabulary.
 *   Unlike BM25 it does not grow with the query's length or rarity: "all of what was asked"
 *   is 1 for any question.
 * - `cosine`: the cosine similarity of the item's vector of the active model with the query's,
 *   null without one (not yet embedded, or a keyword search).
 *
 * Only the ranker's term CTEs are part of the text (its candidates and scoring would be parsed
 * for nothing). The owner's condition applies again: only what the caller may read is scored.
 */
export function relevanceStatement(query: CorpusQuery, params: Binder, plan: RelevancePlan): string {
  // The owner's condition first, as in the ranking statement: one filter shape, one text.
  const corpus = renderCorpus(query, params);
  const ids = params.add(plan.ids);
  const ctes = keywordTermCtes(corpus, params, plan.query, { entities: plan.entities, maxTerms: plan.maxTerms });
  let cosine = 'NULL::float8';
  if (plan.semantic) {
    const modelId = assertSafeModelId(plan.semantic.model.id);
    const dims = Math.trunc(plan.semantic.model.dimensions);
    const v = params.add(toVectorLiteral(plan.semantic.vector));
    cosine = `CASE WHEN c.embedding_model = '${modelId}'
             THEN (1 - (c.embedding::vector(${dims}) <=> ${v}::vector(${dims})))::float8 END`;
  }
  return `WITH ${ctes}
  SELECT c.id,
         coalesce((SELECT sum(t.idf) FILTER (WHERE c.tsv @@ t.q) / nullif(sum(t.idf), 0) FROM kw_terms t), 0)::float8
           AS coverage,
         ${cosine} AS cosine
  FROM ${corpus.table} c
  WHERE c.id = ANY(${ids}::uuid[]) AND ${corpus.where}`;
}
