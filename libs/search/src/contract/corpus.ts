/**
 * Binds a value as the next parameter of the statement search is rendering and returns its
 * placeholder (`$n`); @cairn/db's SqlParams is one. The owner can add values, never read or
 * reorder those of the rest of the statement.
 */
export interface Binder {
  add(value: unknown): string;
}

/**
 * A searchable table, described by the library that owns it (memory's `memories`, knowledge's
 * `kb_chunks`) and registered with search by handing it over in a {@link CorpusQuery}. Search
 * renders every ranking statement around it: the rankers, the term statistics, the scan choice,
 * a dated question's candidates. The owner contributes typed facts (its table, which signal
 * columns it has, its time column) and one thing only it may render: the condition that picks
 * the rows a filter admits, visibility rules included, from its own typed filter. Search calls
 * that inside its one repository call, with the statement's own parameter numbering, so no
 * SQL text and no parameter list is passed between services (docs/architecture.md, "Ranking
 * across owners").
 */
export interface CorpusDefinition<F> {
  /** The owner's table; also the key its term statistics are kept under. A constant of the owner, never input. */
  readonly table: string;
  /**
   * Which ranking signals the rows carry, as columns of the same name (`importance`,
   * `confidence`, `pinned`); absent ones rank as neutral. Every corpus has `created_at`.
   */
  readonly signals: { readonly importance: boolean; readonly confidence: boolean; readonly pinned: boolean };
  /** The column saying when a row's content happened, for questions with dates; none: the corpus has no dates. */
  readonly occurredAt?: string;
  /** The term-statistics scopes `filter` covers (project ids; the nil uuid for rows without a project). */
  termScopes(filter: F): readonly string[];
  /** Boolean SQL over `alias` for the rows `filter` admits; its values bound through `binder`. */
  condition(filter: F, binder: Binder, alias: string): string;
  /** `filter` narrowed to rows that occurred within `window` (a null end is open). Needed with `occurredAt`. */
  within?(filter: F, window: OccurredWindow): F;
}

/** A time window; a null end is open. */
export interface OccurredWindow {
  readonly from: Date | null;
  readonly to: Date | null;
}

/** What to rank: a corpus and the owner's filter over it, both values. */
export interface CorpusQuery<F = unknown> {
  readonly definition: CorpusDefinition<F>;
  readonly filter: F;
}

/** Pairs a definition with a filter of its own type (the one place the two are checked against each other). */
export function corpusQuery<F>(definition: CorpusDefinition<F>, filter: F): CorpusQuery {
  return { definition, filter };
}
