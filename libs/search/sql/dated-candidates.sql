-- Dated candidates, a boost ("last Saturday"): the range widened to where closeness falls to a quarter: datedCandidatesStatement (libs/search/src/dated-ranking.sql.ts), run by RankingRepository.datedCandidates
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = "2024-06-06T00:00:00.000Z"
-- $3 = "2024-06-11T00:00:00.000Z"
-- $4 = "2024-06-08T00:00:00.000Z"
-- $5 = "2024-06-09T00:00:00.000Z"
-- $6 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.project_id IS NULL) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $2 AND m.occurred_at < $3
    ORDER BY greatest(interval '0', $4::timestamptz - m.occurred_at, m.occurred_at - $5::timestamptz), m.occurred_at DESC, m.id
    LIMIT $6;

-- Dated candidates, an open range ("before June 2024"): datedCandidatesStatement (libs/search/src/dated-ranking.sql.ts), run by RankingRepository.datedCandidates
-- $1 = ["6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11"]
-- $2 = "2024-08-01T00:00:00.000Z"
-- $3 = "2024-06-01T00:00:00.000Z"
-- $4 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.project_id IS NULL) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $2
    ORDER BY greatest(interval '0', m.occurred_at - $3::timestamptz), m.occurred_at DESC, m.id
    LIMIT $4;
