/**
 * A searchable table as the rankers see it, built by the repository that owns the table.
 * Identifiers here are trusted constants from that repository, never user input; filters
 * arrive as SQL over alias `c` whose values are already bound through the statement's SqlParams.
 */
export interface Corpus {
  readonly table: string;
  /** Boolean SQL over alias `c`. */
  readonly where: string;
  /** Columns over alias `c` returned as the ranking signals, aliased importance, confidence, pinned, created_at. */
  readonly signals: string;
  /**
   * The term-statistics scopes the filter covers (project ids; the nil uuid for tenant-wide
   * rows): the keyword ranker sums its document frequencies over them.
   */
  readonly termScopes: readonly string[];
}
