/**
 * The moment a question's dates are read against ("last Saturday" of when?) and the caller's
 * UTC offset, so that days begin at the caller's midnight, not the server's.
 */
export interface ReferenceTime {
  readonly instant: Date;
  /** Minutes east of UTC (`+02:00` → 120). */
  readonly offsetMinutes: number;
}

/** Half-open: `from` ≤ t < `to`. A null end is open ("before 2023" has no start). */
export interface TemporalRange {
  readonly from: Date | null;
  readonly to: Date | null;
}

/**
 * How a resolved range changes recall:
 *  - `filter`: only memories that occurred in the range (a clear calendar range with its year:
 *    "in May 2023", "on 3 June 2023", "between 2024-01-01 and 2024-03-31");
 *  - `boost`: memories near the range gain a bounded amount and memories dated in it become
 *    candidates even without a word in common; nothing is dropped (everything relative to the
 *    reference date, and any guess: "last Saturday", "in May", "recently").
 */
export type TemporalUse = 'filter' | 'boost';

export type TemporalKind =
  /** A calendar date or range named outright ("May 2023", "2024-05-14", "Q2 2024", "in 2023"). */
  | 'date'
  /** Counted from the reference date ("yesterday", "last Saturday", "two weeks ago", "last month"). */
  | 'relative'
  /** "recently", "lately", "the other day": a soft window before the reference date. */
  | 'recent'
  /** Counted from an event the question names ("two weeks before the trip"), placed at recall time. */
  | 'anchored';

export interface ResolvedWhen {
  /** The words of the question it was read from. */
  readonly expression: string;
  readonly kind: TemporalKind;
  /** Absent only for `anchored` until the event is placed. */
  readonly range?: TemporalRange;
  readonly use: TemporalUse;
  /**
   * What a memory dated in the range gains, as a share (0–1) of what the best match of one
   * ranker earns: a bounded boost that a clearly better text match still outranks.
   */
  readonly weight: number;
  /** For `anchored`: the event to place and the offset from it. */
  readonly anchor?: { readonly event: string; readonly offsetMs: number; readonly halfWidthMs: number };
}

export type TemporalDirection = 'earliest' | 'latest';

export interface ResolvedOrder {
  readonly expression: string;
  /** "first time", "earliest" → earliest; "most recent", "latest", "last time" → latest. */
  readonly direction: TemporalDirection;
}

/** What a question says about time, read against a reference date. */
export interface TemporalResolution {
  readonly reference: ReferenceTime;
  readonly when?: ResolvedWhen;
  readonly order?: ResolvedOrder;
  /**
   * The question without the date words it was resolved from (and their dangling
   * prepositions): what is left says whether the question names anything but dates
   * (`contentless`). Equal to the question when nothing was found. Recall gives the rankers
   * the whole question, date words included, unless it is contentless (docs/retrieval.md).
   */
  readonly withoutDates: string;
  /** Nothing but dates and question words: rank by when memories occurred alone. */
  readonly contentless: boolean;
}
