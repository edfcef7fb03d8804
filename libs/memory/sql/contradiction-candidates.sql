-- Contradiction candidates (ContradictionsService, on store and on a content update): HybridSearch.rank
-- ranks this corpus by keyword with the memory's content, keywords and tags as the query; then the
-- candidates' text is read for the detector.

-- the condition: live memories of the memory's project and tenant-wide ones, not itself
-- corpus table: memories (alias c); term statistics of the scopes ["00000000-0000-4000-8000-000000000001","00000000-0000-0000-0000-000000000000"]
-- signals: c.importance, c.confidence, c.pinned, c.created_at
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-0000000000aa"
c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.project_id IS NULL) AND c.archived_at IS NULL AND c.superseded_by IS NULL AND c.id <> $2;

-- the ranked candidates' text; $1 = their ids
SELECT id, content FROM memories WHERE id = ANY($1::uuid[]);
