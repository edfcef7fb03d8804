import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { SqlParams } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type CorpusQuery, type OccurredWindow } from './contract/corpus';
import { type Candidate, type SignalName } from './contract/search.types';
import { datedCandidatesStatement, occurredAtStatement } from './dated-ranking.sql';
import { rankingStatement, vectorRowCount } from './ranking.sql';
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
  statement(corpus: CorpusQuery, plan: RankingPlan): RenderedStatement {
    const params = new SqlParams();
    return { text: rankingStatement(corpus, params, plan), values: params.values };
  }

  /** Rows of `table` with a vector of `model`, counted up to `maxRows + 1` at most. */
  async countVectors(table: string, model: EmbeddingModel, maxRows: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(vectorRowCount(table, model, maxRows));
    return row?.n ?? 0;
  }

  /** Ids of rows the corpus admits dated within `window`, nearest to `core` first (datedCandidatesStatement). */
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
  async occurredAt(corpus: CorpusQuery, id: string): Promise<Date | undefined> {
    const params = new SqlParams();
    const text = occurredAtStatement(corpus, id, params);
    const [row] = await this.db.query<{ at: Date }>(text, params.values);
    return row?.at;
  }
}
