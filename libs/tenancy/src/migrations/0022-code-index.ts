import { type Migration } from '@cairn/db';

/**
 * The code index (@cairn/code-index, docs/code-index.md): per project and branch, the files a
 * client uploaded (the manifest: path and content hash), their symbols and the identifiers they
 * reference (tree-sitter), and their text in chunks searchable by keyword and by meaning like
 * knowledge-base chunks. A chunk's `search_text` is its content with identifiers split
 * (`parseFile` also as `parse file`), so English full-text search finds the words in names.
 */
export const codeIndex: Migration = {
  version: 22,
  name: 'code-index',
  async up(sql) {
    await sql(`
      CREATE TABLE code_branches (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        name text NOT NULL,
        last_commit text,
        indexed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, name)
      )`);
    await sql(`
      CREATE TABLE code_files (
        id uuid PRIMARY KEY,
        branch_id uuid NOT NULL REFERENCES code_branches (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        path text NOT NULL,
        content_hash text NOT NULL,
        size integer NOT NULL,
        line_count integer NOT NULL,
        language text,
        content text NOT NULL,
        indexed_commit text,
        parse_error text,
        indexed_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (branch_id, path)
      )`);
    await sql(`
      CREATE TABLE code_symbols (
        id uuid PRIMARY KEY,
        file_id uuid NOT NULL REFERENCES code_files (id) ON DELETE CASCADE,
        branch_id uuid NOT NULL REFERENCES code_branches (id) ON DELETE CASCADE,
        name text NOT NULL,
        kind text NOT NULL,
        start_line integer NOT NULL,
        end_line integer NOT NULL,
        signature text NOT NULL,
        container text,
        exported boolean NOT NULL
      )`);
    await sql(`CREATE INDEX code_symbols_name ON code_symbols (branch_id, lower(name))`);
    await sql(`CREATE INDEX code_symbols_file ON code_symbols (file_id)`);
    await sql(`CREATE INDEX code_symbols_name_trgm ON code_symbols USING gin (lower(name) public.gin_trgm_ops)`);
    await sql(`
      CREATE TABLE code_references (
        file_id uuid NOT NULL REFERENCES code_files (id) ON DELETE CASCADE,
        branch_id uuid NOT NULL REFERENCES code_branches (id) ON DELETE CASCADE,
        name text NOT NULL,
        line integer NOT NULL
      )`);
    await sql(`CREATE INDEX code_references_name ON code_references (branch_id, name)`);
    await sql(`CREATE INDEX code_references_file ON code_references (file_id)`);
    await sql(`
      CREATE TABLE code_chunks (
        id uuid PRIMARY KEY,
        file_id uuid NOT NULL REFERENCES code_files (id) ON DELETE CASCADE,
        branch_id uuid NOT NULL REFERENCES code_branches (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        ordinal integer NOT NULL,
        start_line integer NOT NULL,
        end_line integer NOT NULL,
        content text NOT NULL,
        search_text text NOT NULL,
        content_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        embedding vector,
        embedding_model text,
        embedded_hash text,
        embedded_at timestamptz,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', search_text)) STORED,
        tsv_tokens integer GENERATED ALWAYS AS (search_token_count(to_tsvector('english', search_text))) STORED,
        UNIQUE (file_id, ordinal)
      )`);
    await sql(`CREATE INDEX code_chunks_tsv ON code_chunks USING gin (tsv)`);
    await sql(`CREATE INDEX code_chunks_branch ON code_chunks (branch_id)`);
    await sql(`CREATE INDEX code_chunks_unembedded ON code_chunks (id) WHERE embedded_hash IS NULL`);
    // Term statistics for the shared keyword ranker, per project like knowledge-base chunks.
    await sql(`
      CREATE FUNCTION code_chunks_count_terms() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          PERFORM count_terms('code_chunks', OLD.project_id, OLD.tsv, OLD.tsv_tokens, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          PERFORM count_terms('code_chunks', NEW.project_id, NEW.tsv, NEW.tsv_tokens, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await sql(`
      CREATE TRIGGER code_chunks_term_counts_write AFTER INSERT OR DELETE ON code_chunks
      FOR EACH ROW EXECUTE FUNCTION code_chunks_count_terms()`);
  },
};
