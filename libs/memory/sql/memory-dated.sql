-- Dated candidates (MemoryRecall through MemoriesRepository.datedCandidates): memories that occurred near a
-- question's date range, nearest first, added to what the rankers found; memories_project_occurred serves it.

-- a boost ("last Saturday"): the range widened to where closeness falls to a quarter
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "2024-06-06T00:00:00.000Z"
--   $3 = "2024-06-11T00:00:00.000Z"
--   $4 = "2024-06-08T00:00:00.000Z"
--   $5 = "2024-06-09T00:00:00.000Z"
--   $6 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.project_id IS NULL) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $2 AND m.occurred_at < $3
    ORDER BY greatest(interval '0', $4::timestamptz - m.occurred_at, m.occurred_at - $5::timestamptz), m.occurred_at DESC, m.id
    LIMIT $6;

-- an open range ("before June 2024")
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "2024-08-01T00:00:00.000Z"
--   $3 = "2024-06-01T00:00:00.000Z"
--   $4 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.project_id IS NULL) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $2
    ORDER BY greatest(interval '0', m.occurred_at - $3::timestamptz), m.occurred_at DESC, m.id
    LIMIT $4;
