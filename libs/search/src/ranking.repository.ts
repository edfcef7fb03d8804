import { Injectable } from '@nestjs/common';
import { type EmbeddingModel } from '@cairn/embeddings';
import { type SqlParams } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type Corpus } from './contract/corpus';
import { type Candidate, type SignalName } from './contract/search.types';
import { rankingStatement, vectorRowCount } from './ranking.sql';
import { type RankingPlan } from './ranking.types';

/**
 * The values bound to a ranking statement's `$n` placeholders: the corpus filter's first,
 * then the rankers' own. Callers build the corpus into it, HybridSearch hands it on.
 */
export type RankingParams = SqlParams;

interface RankerRow {
  list: SignalName;
  id: string;
  score: number;
  importance: number | null;
  confidence: number | null;
  pinned: boolean | null;
  created_at: Date;
}

/**
 * The rankers' statements over any corpus (memories, knowledge-base chunks). Every call runs
 * inside the caller's tenant transaction (opened with `vectorSearchSettings` for ranking).
 */
@Injectable()
export class RankingRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * One statement for the whole plan, prepared (its text depends only on the corpus filter's
   * shape and the plan's, never on values), returning each ranker's candidates.
   */
  async rank(corpus: Corpus, params: RankingParams, plan: RankingPlan): Promise<Record<SignalName, Candidate[]>> {
    const rows = await this.db.queryPrepared<RankerRow>(rankingStatement(corpus, params, plan), params.values);
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

  /** Rows of `table` with a vector of `model`, counted up to `maxRows + 1` at most. */
  async countVectors(table: string, model: EmbeddingModel, maxRows: number): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(vectorRowCount(table, model, maxRows));
    return row?.n ?? 0;
  }
}
