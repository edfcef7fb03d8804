import { type Migration } from '@cairn/db';

/** The scope key of rows with no project (tenant-wide memories). */
const TENANT_WIDE = `'00000000-0000-0000-0000-000000000000'::uuid`;

/** The memories' tsvector expression (migration 2), which their length is counted over. */
const MEMORY_TSV = `setweight(to_tsvector('english', content), 'A') ||
  setweight(to_tsvector('english', search_words(keywords)), 'B') ||
  setweight(to_tsvector('english', search_words(tags)), 'C') ||
  setweight(to_tsvector('english', category), 'D')`;

/**
 * Term statistics for the keyword ranker (BM25), kept by the write path instead of read from
 * the planner's statistics: per searchable table (`corpus`) and per project (`scope`), how many
 * live rows hold each lexeme (`docs`), and under the empty lexeme '' how many live rows there
 * are and their total length (`tokens`). A row's length is its number of indexed words
 * (`tsv_tokens`, stop words left out as in the tsvector): BM25's length normalisation over
 * distinct lexemes instead loses three points of recall@10 on LongMemEval.
 *
 * Writers only append signed deltas (`term_count_deltas`), so concurrent writers never wait
 * on each other's counter rows and cannot deadlock; readers sum the folded totals
 * (`term_counts`) and the deltas not yet folded, so the figures are exact at every moment.
 * The worker folds the deltas into the totals periodically (TermStatistics.compact).
 */
export const termStatistics: Migration = {
  version: 8,
  name: 'term-statistics',
  async up(sql) {
    // A generated column cannot read another, so the length is counted over the same expression.
    await sql(`
      CREATE FUNCTION search_token_count(tsvector) RETURNS integer
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT coalesce(sum(coalesce(array_length(u.positions, 1), 1)), 0)::int FROM unnest($1) u $$`);
    await sql(
      `ALTER TABLE memories ADD COLUMN tsv_tokens integer GENERATED ALWAYS AS (search_token_count(${MEMORY_TSV})) STORED`,
    );
    await sql(`
      ALTER TABLE kb_chunks ADD COLUMN tsv_tokens integer
      GENERATED ALWAYS AS (search_token_count(to_tsvector('english', content))) STORED`);

    await sql(`
      CREATE TABLE term_counts (
        corpus text NOT NULL,
        scope uuid NOT NULL,
        lexeme text NOT NULL,
        docs integer NOT NULL,
        tokens bigint NOT NULL DEFAULT 0,
        PRIMARY KEY (corpus, scope, lexeme)
      )`);
    await sql(`
      CREATE TABLE term_count_deltas (
        corpus text NOT NULL,
        scope uuid NOT NULL,
        lexeme text NOT NULL,
        docs integer NOT NULL,
        tokens bigint NOT NULL DEFAULT 0
      )`);
    await sql(`CREATE INDEX term_count_deltas_key ON term_count_deltas (corpus, scope, lexeme)`);
    // What each fold drops (lexemes no live row holds any more), found without scanning the totals.
    await sql(`CREATE INDEX term_counts_emptied ON term_counts (corpus) WHERE docs <= 0 AND lexeme <> ''`);

    // SET search_path FROM CURRENT: the functions always write this tenant's tables, whatever
    // search path the writing session has.
    await sql(`
      CREATE FUNCTION count_terms(p_corpus text, p_scope uuid, p_tsv tsvector, p_tokens integer, p_sign integer)
      RETURNS void
      LANGUAGE sql SET search_path FROM CURRENT AS $$
        INSERT INTO term_count_deltas (corpus, scope, lexeme, docs, tokens)
        SELECT p_corpus, coalesce(p_scope, ${TENANT_WIDE}), u.lexeme, p_sign, 0 FROM unnest(p_tsv) u
        UNION ALL
        SELECT p_corpus, coalesce(p_scope, ${TENANT_WIDE}), '', p_sign, p_sign * p_tokens
      $$`);
    // A memory counts while it is not deleted (archived and superseded ones can still be searched).
    await sql(`
      CREATE FUNCTION memories_count_terms() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
          PERFORM count_terms('memories', OLD.project_id, OLD.tsv, OLD.tsv_tokens, -1);
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
          PERFORM count_terms('memories', NEW.project_id, NEW.tsv, NEW.tsv_tokens, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await sql(`
      CREATE FUNCTION kb_chunks_count_terms() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          PERFORM count_terms('kb_chunks', OLD.project_id, OLD.tsv, OLD.tsv_tokens, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          PERFORM count_terms('kb_chunks', NEW.project_id, NEW.tsv, NEW.tsv_tokens, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await sql(`
      CREATE TRIGGER memories_term_counts_write AFTER INSERT OR DELETE ON memories
      FOR EACH ROW EXECUTE FUNCTION memories_count_terms()`);
    // Only updates that change what is counted: access counts, vectors and flags cost nothing.
    await sql(`
      CREATE TRIGGER memories_term_counts_update AFTER UPDATE ON memories
      FOR EACH ROW WHEN (
        OLD.tsv IS DISTINCT FROM NEW.tsv OR OLD.project_id IS DISTINCT FROM NEW.project_id
        OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
      ) EXECUTE FUNCTION memories_count_terms()`);
    await sql(`
      CREATE TRIGGER kb_chunks_term_counts_write AFTER INSERT OR DELETE ON kb_chunks
      FOR EACH ROW EXECUTE FUNCTION kb_chunks_count_terms()`);
    await sql(`
      CREATE TRIGGER kb_chunks_term_counts_update AFTER UPDATE ON kb_chunks
      FOR EACH ROW WHEN (OLD.tsv IS DISTINCT FROM NEW.tsv OR OLD.project_id IS DISTINCT FROM NEW.project_id)
      EXECUTE FUNCTION kb_chunks_count_terms()`);

    // Rows written before this migration.
    await sql(`
      INSERT INTO term_counts (corpus, scope, lexeme, docs, tokens)
      SELECT 'memories', coalesce(m.project_id, ${TENANT_WIDE}), u.lexeme, count(*), 0
      FROM memories m, unnest(m.tsv) u WHERE m.deleted_at IS NULL GROUP BY 2, 3
      UNION ALL
      SELECT 'memories', coalesce(m.project_id, ${TENANT_WIDE}), '', count(*), sum(m.tsv_tokens)
      FROM memories m WHERE m.deleted_at IS NULL GROUP BY 2
      UNION ALL
      SELECT 'kb_chunks', c.project_id, u.lexeme, count(*), 0 FROM kb_chunks c, unnest(c.tsv) u GROUP BY 2, 3
      UNION ALL
      SELECT 'kb_chunks', c.project_id, '', count(*), sum(c.tsv_tokens) FROM kb_chunks c GROUP BY 2`);
  },
};
