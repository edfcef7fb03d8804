import { Inject, Injectable, Logger } from '@nestjs/common';
import { LATE, withinBudget } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { EMBEDDER, type Embedder, EmbeddingBackfills } from '@cairn/embeddings';
import { TenantContext } from '@cairn/tenancy';
import { LRUCache } from 'lru-cache';
import { type CorpusQuery } from './contract/corpus';
import { type EmbedQueryOptions, type QueryVector, type RankOutcome, type RankRequest } from './contract/rank-request';
import { type RankedId, type SearchMode } from './contract/search.types';
import { fuse, type FusionMethod } from './fusion';
import { queryEntities } from './query-entities';
import { mergeParts } from './query-parts';
import { QueryEmbeddings } from './query-embeddings.service';
import { QueryRewriting } from './query-rewriting.service';
import { candidatesPerList } from './ranking-sizes';
import { RankingRepository } from './ranking.repository';
import { VectorScanChoice } from './vector-scan-choice.service';

/**
 * Fusion with a real embedding model, chosen on LongMemEval with bench/eval/fusion-study.ts
 * (figures in docs/retrieval.md) for all-MiniLM-L6-v2; a model measured otherwise says so
 * (EmbeddingModel.keywordWeight).
 */
const MODEL_KEYWORD_WEIGHT = 0.7;
/**
 * The built-in hash embedder measures word overlap, much as the keyword ranker does but
 * noisier, so in hybrid fusion it only nudges.
 */
const BUILT_IN_FUSION: FusionMethod = { kind: 'score', keywordWeight: 0.9 };
const BACKFILL_CACHE_MS = 30_000;

/** Plenty for any question; long texts (a memory checked for contradictions) keep their rarest words. */
const DEFAULT_MAX_TERMS = 24;

/**
 * Candidate rows the keyword ranker reads at most through its rarer terms (the rarest term's
 * matches are always read). Each costs a few microseconds to score; at this size a keyword
 * ranking stays under 10 ms at 100k memories, and in a corpus of tens of thousands of
 * conversation turns nearly every question's terms fit (see bench/eval).
 */
export const DEFAULT_MATCH_BUDGET = 1500;

/**
 * Ranking a text over a corpus: picks the rankers and the scan, runs them in a single statement
 * (RankingRepository), then fuses. Call inside a tenant transaction opened with
 * `vectorSearchSettings`, with the query embedded beforehand (`embedQuery`, outside it).
 */
@Injectable()
export class TextRanking {
  private readonly logger = new Logger('HybridSearch');

  /** Per tenant schema: whether a backfill for the active model is still running, briefly cached. */
  private readonly backfillSeen = new LRUCache<string, boolean>({ max: 10_000, ttl: BACKFILL_CACHE_MS });

  constructor(
    @Inject(EMBEDDER) private readonly embedder: Embedder,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly ranking: RankingRepository,
    private readonly backfills: EmbeddingBackfills,
    private readonly tenant: TenantContext,
    private readonly scanChoice: VectorScanChoice,
    private readonly queryEmbeddings: QueryEmbeddings,
    private readonly rewriting: QueryRewriting,
  ) {}

  async rank(corpus: CorpusQuery, request: RankRequest): Promise<RankOutcome> {
    let mode = request.mode;
    const prepared =
      request.queryVector?.query === request.query ? request.queryVector : await this.embedQuery(request.query, mode);
    const notes = [...prepared.notes];
    const vector = prepared.vector;
    if (mode !== 'keyword' && !vector) mode = 'keyword';
    if (this.embedder.model.builtIn && mode !== 'keyword') {
      notes.push('vectors come from the built-in hash embedder: lexical similarity, not semantic');
    }
    if (mode !== 'keyword' && (await this.backfillRunning())) {
      notes.push(
        `re-embedding for ${this.embedder.model.id} is in progress: rows not yet re-embedded are found by keyword only`,
      );
    }
    const perList = candidatesPerList(request.limit);
    // Decided before the ranking statement, in the same transaction: a bounded count, cached.
    const exact = vector ? await this.scanChoice.exact(corpus.definition.table, this.embedder.model) : false;
    const rankText = async (query: string, queryVector: Float32Array | undefined): Promise<RankedId[]> => {
      const lists = await this.ranking.rank(corpus, {
        keyword:
          mode === 'semantic'
            ? undefined
            : {
                query,
                matchBudget: request.matchBudget ?? DEFAULT_MATCH_BUDGET,
                entities: queryEntities(query),
                limit: perList,
                maxTerms: request.maxTerms ?? DEFAULT_MAX_TERMS,
              },
        semantic:
          mode !== 'keyword' && queryVector
            ? { model: this.embedder.model, vector: queryVector, limit: perList, exact }
            : undefined,
      });
      return fuse(lists, { method: this.fusion(), now: new Date() });
    };
    const whole = await rankText(request.query, vector);
    // A question about several things: each part ranked too (one statement each, same
    // transaction), so the best match of every part can reach the first page.
    const parts: RankedId[][] = [];
    for (const part of prepared.parts ?? []) {
      parts.push(await rankText(part.query, mode === 'keyword' ? undefined : part.vector));
    }
    const ranked = mergeParts(whole, parts).slice(0, request.limit);
    return {
      ranked,
      report: {
        requestedMode: request.mode,
        mode,
        notes,
        embeddingModel: mode === 'keyword' ? null : this.embedder.model.id,
      },
    };
  }

  private fusion(): FusionMethod {
    const model = this.embedder.model;
    if (model.builtIn) return BUILT_IN_FUSION;
    return { kind: 'score', keywordWeight: model.keywordWeight ?? MODEL_KEYWORD_WEIGHT };
  }

  private async backfillRunning(): Promise<boolean> {
    const schema = this.tenant.require('HybridSearch').schema;
    const seen = this.backfillSeen.get(schema);
    if (seen !== undefined) return seen;
    const state = await this.backfills.state(this.embedder.model.id);
    const running = state?.status === 'running';
    this.backfillSeen.set(schema, running);
    return running;
  }

  /**
   * The query's vector for `mode` (none for keyword search). Call it before opening the tenant
   * transaction and pass the result as `queryVector`, so the model call holds no connection.
   * A provider failure is not an error: the search then runs by keyword and says why. With
   * `parts`, the question's parts (from the rewrite model when QUERY_REWRITE=on, else found
   * without one: QueryRewriting) are embedded too, each as soon as it is known; the whole
   * question's vector is asked for meanwhile.
   */
  async embedQuery(query: string, mode: SearchMode, options: EmbedQueryOptions = {}): Promise<QueryVector> {
    if (options.parts) {
      const [whole, split] = await Promise.all([
        this.embedQuery(query, mode),
        this.rewriting.parts(query).then(async ({ parts, notes }) => ({
          notes,
          parts: await Promise.all(parts.map((text) => this.embedQuery(text, mode))),
        })),
      ]);
      const notes = [...whole.notes, ...split.notes];
      if (split.parts.length === 0) return { ...whole, notes };
      return { ...whole, notes, parts: split.parts.map((part) => ({ query: part.query, vector: part.vector })) };
    }
    if (mode === 'keyword') return { query, vector: undefined, notes: [] };
    const timeoutMs = this.config.embeddings.queryTimeoutMs;
    // A stalled provider must not stall searches: past the budget they run by keyword. The call
    // itself goes on, and its vector is remembered for the next search with the same text.
    try {
      const vector = await withinBudget(this.queryEmbeddings.embed(query), timeoutMs);
      if (vector === LATE) {
        this.logger.warn({ msg: 'query embedding timed out; searching by keyword only', timeoutMs });
        return {
          query,
          vector: undefined,
          notes: [`the embedding provider did not answer within ${timeoutMs} ms: searched by keyword only`],
        };
      }
      return { query, vector, notes: [] };
    } catch (error) {
      this.logger.warn({ msg: 'query embedding failed; searching by keyword only', err: error });
      return { query, vector: undefined, notes: ['the embedding provider is unavailable: searched by keyword only'] };
    }
  }
}
