-- The statements of libs/embeddings/src/vector-indexes.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- VectorIndexesRepository.validity
-- parameters: $1 name, $2 name
SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = $2;

-- VectorIndexesRepository.drop
DROP INDEX CONCURRENTLY IF EXISTS "t_example"."memories_embedding_nomic_embed_text";

-- VectorIndexesRepository.create
SET statement_timeout = 0;

CREATE INDEX CONCURRENTLY IF NOT EXISTS "memories_embedding_nomic_embed_text" ON "t_example".memories
USING hnsw ((embedding::public.vector(768)) public.vector_cosine_ops)
WHERE embedding_model = 'nomic-embed-text';

RESET statement_timeout;
