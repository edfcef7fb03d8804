-- kb_search (KbSearchService through KbChunksRepository.corpus): HybridSearch.rank runs its keyword and vector
-- rankers over this corpus: the chunks of live documents of the searched projects (one, or the token's).
-- corpus table: kb_chunks (alias c); term statistics of the scopes ["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000002"]
-- signals: c.created_at (chunks carry no importance, confidence or pin)
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001","00000000-0000-4000-8000-000000000002"]
c.project_id = ANY($1::uuid[]) AND EXISTS (SELECT 1 FROM kb_documents d WHERE d.id = c.document_id AND d.expires_at > now());
