import { type ResolvedWhen } from '@cairn/temporal';
import { type RelevanceScores } from './relevance';
import { type RankedId, type SearchMode, type SearchReport } from './search.types';

/** A query embedded ahead of ranking: its vector, or why there is none. */
export interface QueryVector {
  readonly query: string;
  readonly vector: Float32Array | undefined;
  readonly notes: readonly string[];
  /**
   * With `embedQuery(…, { parts: true })`: the parts of a question that coordinates several
   * things (queryParts), each with its vector, ranked beside the whole question and merged.
   */
  readonly parts?: readonly QueryPart[];
}

/** One part of a decomposed question and its vector (absent when the provider did not answer). */
export interface QueryPart {
  readonly query: string;
  readonly vector: Float32Array | undefined;
}

export interface EmbedQueryOptions {
  /** Decompose a question that coordinates several things into parts ranked beside it. */
  readonly parts?: boolean;
}

export interface RankRequest {
  readonly query: string;
  readonly mode: SearchMode;
  /** How many fused results the caller wants. */
  readonly limit: number;
  /** Rarest query terms the keyword ranker uses (default 24). */
  readonly maxTerms?: number;
  /** Rows the rarest query terms may select as keyword candidates (default DEFAULT_MATCH_BUDGET). */
  readonly matchBudget?: number;
  /**
   * The query's vector from HybridSearch.embedQuery, made before the caller opened its
   * transaction (DESIGN §11.3: no model call holds a connection). Without it, `rank` embeds.
   */
  readonly queryVector?: QueryVector;
  /**
   * Also score each ranked row's calibrated relevance (RelevanceScoring), in the same call and
   * transaction: what a relevance threshold is applied to.
   */
  readonly relevance?: boolean;
}

export interface RankOutcome {
  readonly ranked: RankedId[];
  readonly report: SearchReport;
  /** With `relevance: true` and text to judge by: each ranked row's calibrated relevance. */
  readonly relevance?: RelevanceScores;
}

/** A question with dates, for a corpus with a time column. */
export interface DatedRequest {
  /**
   * The question's dates as @cairn/temporal read them. An anchored one ("two weeks before the
   * trip") is placed here, at the time of the row that best matches its event by keyword.
   */
  readonly when: ResolvedWhen | undefined;
  /** The question names nothing but dates: with a range, rows are ordered by date alone, no text ranked. */
  readonly contentless: boolean;
  /** A filter that finds nothing is applied instead as a boost of this weight. */
  readonly relaxedWeight: number;
}

/** A ranking request of a question with dates: its text may be absent (only dates to go by). */
export type DatedRankRequest = Omit<RankRequest, 'query'> & {
  readonly query: string | undefined;
  readonly dates: DatedRequest;
};

export interface DatedOutcome {
  /** The text ranking (within the range when it filters), when there was text to rank. */
  readonly text?: RankOutcome;
  /** Rows dated near the range, nearest first, up to the limit: found whatever their words. */
  readonly dated: readonly string[];
  /** The dates as applied: an anchored range placed (or dropped, unplaced), a filter relaxed to a boost. */
  readonly when: ResolvedWhen | undefined;
  /** Where an anchor was placed (the row and when it occurred); null when no row matches its event. */
  readonly anchor?: { readonly id: string; readonly occurredAt: Date } | null;
  /** The range filtered out everything, so it was applied as a boost instead. */
  readonly relaxed: boolean;
  /** With `relevance: true` and text to judge by: the relevance of the text-ranked and the dated rows. */
  readonly relevance?: RelevanceScores;
}
