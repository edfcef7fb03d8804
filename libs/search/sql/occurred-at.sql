-- The time of the best match of an anchor's event ("two weeks before the trip"): occurredAtStatement (libs/search/src/dated-ranking.sql.ts), run by RankingRepository.occurredAt
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = "00000000-0000-4000-8000-0000000000aa"
SELECT c.occurred_at AS at FROM memories c WHERE c.id = $2::uuid AND c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL;
