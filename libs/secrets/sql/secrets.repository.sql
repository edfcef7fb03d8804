-- The statements of libs/secrets/src/secrets.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- SecretsRepository.insert
-- parameters: $1 uuid[], $2 text[], $3 text[], $4 text[], $5 bytea[], $6 uuid, $7 text, $8 uuid, $9 uuid,
--   $10 text, $11 text
INSERT INTO secrets (id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
                     writer_token_id, project_id, source_table, source_id)
SELECT id, placeholder_id, type, rule_id, value_encrypted, $6, $7, $8, $9, $10, $11
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::bytea[])
       AS s(id, placeholder_id, type, rule_id, value_encrypted)
ON CONFLICT (placeholder_id, writer_token_id, source_table, source_id) DO NOTHING;

-- SecretsRepository.copySource
-- parameters: $1 text, $2 text, $3 uuid, $4 text, $5 text
INSERT INTO secrets (id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
                     writer_token_id, project_id, source_table, source_id, created_at)
SELECT gen_random_uuid(), placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id,
       writer_token_id, $3, $4, $5, created_at
  FROM secrets WHERE source_table = $1 AND source_id = $2
ON CONFLICT (placeholder_id, writer_token_id, source_table, source_id) DO NOTHING;

-- SecretsRepository.findByPlaceholder
-- parameters: $1 text, $2 uuid
SELECT id, placeholder_id, type, value_encrypted, writer_user_id, writer_agent_id, writer_token_id, project_id,
      source_table, source_id, created_at
 FROM secrets
WHERE placeholder_id = $1 AND (project_id = $2 OR project_id IS NULL)
ORDER BY created_at, id;

-- SecretsRepository.findBySources
-- parameters: $1 text, $2 text[]
SELECT id, placeholder_id, type, rule_id, value_encrypted, writer_user_id, writer_agent_id, writer_token_id,
      project_id, source_table, source_id, created_at
 FROM secrets
WHERE source_table = $1 AND source_id = ANY($2::text[])
ORDER BY source_id, created_at, id;

-- SecretsRepository.replaceEnvelope
-- parameters: $1 uuid, $2 bytea, $3 bytea
WITH updated AS (UPDATE secrets SET value_encrypted = $3 WHERE id = $1 AND value_encrypted = $2 RETURNING id)
SELECT id FROM updated;

-- SecretsRepository.sealedBefore
-- parameters: $1 integer, $2 uuid, $3 bigint
SELECT id, placeholder_id AS "placeholderId", value_encrypted AS envelope
 FROM secrets
WHERE (get_byte(value_encrypted, 1) * 256 + get_byte(value_encrypted, 2)) < $1 AND ($2::uuid IS NULL OR id > $2::uuid)
ORDER BY id
LIMIT $3;

-- SecretsRepository.countByKeyVersion
SELECT (get_byte(value_encrypted, 1) * 256 + get_byte(value_encrypted, 2)) AS version, count(*)::int AS envelopes FROM secrets GROUP BY 1 ORDER BY 1;
