import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type CorpusQuery, type OccurredWindow } from './contract/corpus';
import { type Candidate, type SignalName } from './contract/search.types';
import { datedCandidatesStatement, occurredAtStatement } from './dated-ranking.sql';
import { rankingStatement, vectorRowCount } from './ranking.sql';
import { candidatesPerList } from './ranking-sizes';
import { type RankingPlan } from './ranking.types';

interface RankerRow {
  list: SignalName;
  id: string;
  score: number;
  importance: number | null;
  confidence: number | null;
  pinned: boolean | null;
  created_at: Date;
}

/** Examples for the SQL snapshots (@SqlSnapshot): a provider model, and a plan as HybridSearch makes it for 10 results. */
const EXAMPLE_MODEL: EmbeddingModel = { id: EX.modelId, provider: 'ollama', dimensions: 768, builtIn: false };
const EXAMPLE_PLAN: RankingPlan = {
  keyword: {
    query: 'how are staging deploys triggered by Helm?',
    entities: 'Helm',
    // A value bound to a placeholder (DEFAULT_MATCH_BUDGET's): it does not change the statement.
    matchBudget: 1500,
    limit: candidatesPerList(10),
    maxTerms: 24,
  },
  semantic: {
    model: EXAMPLE_MODEL,
    vector: new Float32Array(768).fill(0.036),
    limit: candidatesPerList(10),
    exact: false,
  },
};

/** A statement as it is sent: its text and the values of its `$n` placeholders. */
export interface RenderedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/**
 * The rankers' statements over any owner's corpus (memories, knowledge-base chunks). Each call
 * renders one statement with its own parameters (the owner's condition first) and runs it
 * inside the caller's tenant transaction (opened with `vectorSearchSettings` for ranking).
 */
@Injectable()
export class RankingRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * One statement for the whole plan, prepared (its text depends only on the filter's shape
   * and the plan's, never on values), returning each ranker's candidates.
   */
  @SqlSnapshot({ name: 'hybrid: keyword and semantic, HNSW index scan', params: [EX.corpus, EXAMPLE_PLAN] })
  async rank(corpus: CorpusQuery, plan: RankingPlan): Promise<Record<SignalName, Candidate[]>> {
    const statement = this.statement(corpus, plan);
    const rows = await this.db.queryPrepared<RankerRow>(statement.text, [...statement.values]);
    const lists: Record<SignalName, Candidate[]> = { keyword: [], semantic: [] };
    for (const row of rows) {
      lists[row.list].push({
        id: row.id,
        score: Number(row.score),
        signals: {
          importance: row.importance ?? undefined,
          confidence: row.confidence ?? undefined,
          pinned: row.pinned ?? undefined,
          createdAt: row.created_at,
        },
      });
    }
    return lists;
  }

  /** The ranking statement `rank` sends for this plan, rendered (diagnostics EXPLAIN it; the snapshots show it). */
  @NoSqlSnapshot('renders the statement `rank` sends without sending it, for diagnostics (bench EXPLAINs it)')
  statement(corpus: CorpusQuery, plan: RankingPlan): RenderedStatement {
    const params = new SqlParams();
    return { text: rankingStatement(corpus, params, plan), values: params.values };
  }

  /** Rows of `table` with a vector of `model`, counted up to `maxRows + 1` at most. */
  @SqlSnapshot({ params: [EX.corpusTable, EXAMPLE_MODEL, 20_000] })
  async countVectors(table: string, model: EmbeddingModel, maxRows: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(vectorRowCount(table, model, maxRows));
    return row?.n ?? 0;
  }

  /** Ids of rows the corpus admits dated within `window`, nearest to `core` first (datedCandidatesStatement). */
  @SqlSnapshot(
    {
      name: 'a boost ("last Saturday"): the range widened to where closeness falls to a quarter',
      params: [
        EX.corpus,
        { from: new Date('2026-01-01T00:00:00.000Z'), to: new Date('2026-01-06T00:00:00.000Z') },
        { from: new Date('2026-01-03T00:00:00.000Z'), to: new Date('2026-01-04T00:00:00.000Z') },
        30,
      ],
    },
    {
      name: 'an open range ("before January 2026")',
      params: [
        EX.corpus,
        { from: null, to: new Date('2026-03-01T00:00:00.000Z') },
        { from: null, to: new Date('2026-01-01T00:00:00.000Z') },
        30,
      ],
    },
  )
  async datedCandidates(
    corpus: CorpusQuery,
    window: OccurredWindow,
    core: OccurredWindow,
    limit: number,
  ): Promise<string[]> {
    const params = new SqlParams();
    const text = datedCandidatesStatement(corpus, window, core, limit, params);
    const rows = await this.db.query<{ id: string }>(text, params.values);
    return rows.map((row) => row.id);
  }

  /** When row `id` occurred, if the corpus still admits it. */
  @SqlSnapshot({ params: [EX.corpus, EX.memoryId] })
  async occurredAt(corpus: CorpusQuery, id: string): Promise<Date | undefined> {
    const params = new SqlParams();
    const text = occurredAtStatement(corpus, id, params);
    const [row] = await this.db.query<{ at: Date }>(text, params.values);
    return row?.at;
  }
}
