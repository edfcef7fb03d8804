-- The statements of libs/embeddings/src/embedding-backfills.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- EmbeddingBackfillsRepository.get
-- parameters: $1 text
SELECT model, status, embedded, started_at AS "startedAt", completed_at AS "completedAt"
FROM embedding_backfills WHERE model = $1;

-- EmbeddingBackfillsRepository.start
-- parameters: $1 text, $2 integer
INSERT INTO embedding_backfills (model, dimensions, status) VALUES ($1, $2, 'running')
ON CONFLICT (model) DO NOTHING RETURNING model;

-- EmbeddingBackfillsRepository.progress
-- parameters: $1 text, $2 integer
UPDATE embedding_backfills SET embedded = embedded + $2 WHERE model = $1;

-- EmbeddingBackfillsRepository.complete
-- parameters: $1 text
UPDATE embedding_backfills SET status = 'done', completed_at = now() WHERE model = $1 AND status = 'running';
