import { type Migration } from '@cairn/db';

/**
 * Long-term memories with versions and typed relations, per-agent working memory,
 * session events, and the knowledge base (DESIGN §4). Vectors live in an unconstrained
 * `vector` column tagged with the model that made them; each model gets its own partial
 * HNSW index on `embedding::vector(<dims>)`, so search only ever compares like with like.
 */
export const memoryCore: Migration = {
  version: 2,
  name: 'memory-core',
  async up(sql) {
    // array_to_string is only STABLE; generated columns need an IMMUTABLE expression.
    await sql(`
      CREATE FUNCTION search_words(text[]) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(array_to_string($1, ' '), '') $$`);

    await sql(`
      CREATE TABLE memories (
        id uuid PRIMARY KEY,
        project_id uuid REFERENCES projects (id) ON DELETE CASCADE,
        content text NOT NULL,
        content_hash text NOT NULL,
        category text NOT NULL,
        tags text[] NOT NULL DEFAULT '{}',
        keywords text[] NOT NULL DEFAULT '{}',
        importance smallint NOT NULL CHECK (importance BETWEEN 1 AND 5),
        confidence real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        source_path text,
        source_line integer,
        source_hash text,
        stale boolean NOT NULL DEFAULT false,
        verified_at timestamptz,
        author_user_id uuid,
        author_agent_id text,
        author_token_id uuid,
        pinned boolean NOT NULL DEFAULT false,
        sensitive boolean NOT NULL DEFAULT false,
        version integer NOT NULL DEFAULT 1,
        superseded_by uuid REFERENCES memories (id),
        access_count integer NOT NULL DEFAULT 0,
        last_accessed_at timestamptz,
        archived_at timestamptz,
        deleted_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        change_xid xid8 NOT NULL DEFAULT pg_current_xact_id(),
        embedding vector,
        embedding_model text,
        embedded_hash text,
        embedded_at timestamptz,
        tsv tsvector GENERATED ALWAYS AS (
          setweight(to_tsvector('english', content), 'A') ||
          setweight(to_tsvector('english', search_words(keywords)), 'B') ||
          setweight(to_tsvector('english', search_words(tags)), 'C') ||
          setweight(to_tsvector('english', category), 'D')
        ) STORED
      )`);
    await sql(`CREATE INDEX memories_tsv ON memories USING gin (tsv)`);
    await sql(`CREATE INDEX memories_project_created ON memories (project_id, created_at DESC, id DESC)`);
    await sql(`CREATE INDEX memories_change ON memories (change_xid, id)`);
    await sql(`CREATE INDEX memories_tags ON memories USING gin (tags)`);
    await sql(`CREATE INDEX memories_content_hash ON memories (content_hash)`);
    await sql(`CREATE INDEX memories_unembedded ON memories (id) WHERE embedded_hash IS NULL AND deleted_at IS NULL`);
    await sql(`
      CREATE INDEX memories_embedding_cairn_hash_v1 ON memories
      USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE embedding_model = 'cairn-hash-v1'`);

    await sql(`
      CREATE TABLE memory_versions (
        memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        version integer NOT NULL,
        snapshot jsonb NOT NULL,
        changed_by_user_id uuid,
        changed_by_agent_id text,
        change_reason text,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (memory_id, version)
      )`);

    await sql(`
      CREATE TABLE memory_relations (
        id uuid PRIMARY KEY,
        from_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        to_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        type text NOT NULL CHECK (type IN ('depends_on', 'contradicts', 'elaborates', 'related_to', 'part_of', 'supersedes')),
        note text,
        created_by_user_id uuid,
        created_by_agent_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (from_id, to_id, type),
        CHECK (from_id <> to_id)
      )`);
    await sql(`CREATE INDEX memory_relations_to ON memory_relations (to_id)`);

    await sql(`
      CREATE TABLE working_memory (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        agent_key text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        importance smallint NOT NULL CHECK (importance BETWEEN 1 AND 5),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, agent_key, key)
      )`);

    await sql(`
      CREATE TABLE agent_sessions (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        agent_key text NOT NULL,
        last_seen_at timestamptz NOT NULL,
        PRIMARY KEY (project_id, agent_key)
      )`);

    await sql(`
      CREATE TABLE session_events (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        agent_key text NOT NULL,
        kind text NOT NULL,
        summary text NOT NULL,
        details jsonb,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await sql(`CREATE INDEX session_events_project_created ON session_events (project_id, created_at DESC)`);

    await sql(`
      CREATE TABLE kb_documents (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        source text NOT NULL,
        title text,
        source_type text NOT NULL CHECK (source_type IN ('internal', 'external')),
        retention_tier text NOT NULL CHECK (retention_tier IN ('external', 'internal', 'summary')),
        content_hash text NOT NULL,
        chunk_count integer NOT NULL,
        author_user_id uuid,
        author_agent_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        UNIQUE (project_id, source, content_hash)
      )`);
    await sql(`CREATE INDEX kb_documents_expiry ON kb_documents (retention_tier, expires_at)`);

    await sql(`
      CREATE TABLE kb_chunks (
        id uuid PRIMARY KEY,
        document_id uuid NOT NULL REFERENCES kb_documents (id) ON DELETE CASCADE,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        ordinal integer NOT NULL,
        content text NOT NULL,
        content_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        embedding vector,
        embedding_model text,
        embedded_hash text,
        embedded_at timestamptz,
        tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
        UNIQUE (document_id, ordinal)
      )`);
    await sql(`CREATE INDEX kb_chunks_tsv ON kb_chunks USING gin (tsv)`);
    await sql(`CREATE INDEX kb_chunks_project ON kb_chunks (project_id)`);
    await sql(`CREATE INDEX kb_chunks_unembedded ON kb_chunks (id) WHERE embedded_hash IS NULL`);
    await sql(`
      CREATE INDEX kb_chunks_embedding_cairn_hash_v1 ON kb_chunks
      USING hnsw ((embedding::vector(384)) vector_cosine_ops) WHERE embedding_model = 'cairn-hash-v1'`);
  },
};
