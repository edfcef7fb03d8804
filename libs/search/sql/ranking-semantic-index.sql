-- Ranking statement, semantic only, HNSW index scan: rankingStatement (libs/search/src/ranking.sql.ts), run by RankingRepository.rank
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = <the query vector, 768 dimensions>
-- $3 = 50
WITH
  vec_out AS (
    SELECT 'semantic'::text AS list, c.id, (1 - (c.embedding::vector(768) <=> $2::vector(768)))::float8 AS score,
           c.importance, c.confidence, c.pinned, c.created_at
    FROM memories c
    WHERE c.embedding_model = 'nomic-embed-text' AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL
    ORDER BY c.embedding::vector(768) <=> $2::vector(768)
    LIMIT $3
  ) SELECT * FROM vec_out;
