-- The statements of libs/memory/src/contradiction-candidates.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- ContradictionCandidatesRepository.corpus, no snapshot: returns the corpus as a value: search
--   renders its condition inside the keyword ranking statement
--   (libs/memory/sql/contradiction-candidates.sql)

-- ContradictionCandidatesRepository.contents
-- parameters: $1 uuid[]
SELECT id, content FROM memories WHERE id = ANY($1::uuid[]);

-- ContradictionCandidatesRepository.queueReviews
-- parameters: $1 uuid, $2 uuid, $3 uuid[]
INSERT INTO memory_reviews (id, project_id, kind, memory_id, other_memory_id,
  proposed_by_user_id, proposed_by_agent_id, proposed_by_token_id)
SELECT gen_random_uuid(), $1, 'contradiction', n.id, o.id, n.author_user_id, n.author_agent_id, n.author_token_id
FROM memories n JOIN memories o ON o.id = ANY($3::uuid[])
WHERE n.id = $2 AND NOT ((o.author_token_id = n.author_token_id OR o.author_user_id = n.author_user_id OR (n.author_user_id IS NULL AND o.author_user_id IS NULL AND o.author_agent_id = n.author_agent_id)) IS TRUE) AND n.scope <> 'private' AND o.scope <> 'private'
ON CONFLICT DO NOTHING;
