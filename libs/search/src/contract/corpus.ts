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
  /** Weight of a term occurrence by tsvector weight class (content A, keywords B, tags C, category D). */
  readonly fieldWeights: Readonly<Record<'A' | 'B' | 'C' | 'D', number>>;
}
