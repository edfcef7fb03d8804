import { type Migration } from '@cairn/db';

/**
 * Team memory (issue 14): memory scopes, shares and tag share rules, the review queue for
 * promotions and contradictions, and the per-project coordination channel.
 *
 * - `memories.scope`: `private` (its author only, plus shares), `project` (the default, as
 *   before), `team` (every project of the tenant). Tenant-wide rows (no project) were already
 *   visible from every project, so they become `team`; a row without a project is always `team`.
 * - Shares grant one user or one agent read or write on one memory; a tag rule does the same
 *   for every memory of its owner carrying the tag, later ones included (evaluated at read time).
 *   Owners and grantees use the memory's author columns: a user, else an agent id, else a token.
 * - `memory_reviews`: pending promotions (to a wider scope) and contradictions between authors,
 *   decided by a project orchestrator or a tenant admin; the author learns the outcome from the
 *   next briefing (`author_notified_at`).
 * - `broadcasts`: append-only, one sequence and one SHA-256 chain per project (as `audit_log`);
 *   rows leave only with their project. `broadcast_channels` keeps the optional channel key as an
 *   scrypt hash with its salt and parameters, never the key.
 */
export const teamMemory: Migration = {
  version: 17,
  name: 'team-memory',
  async up(sql) {
    await sql(`ALTER TABLE memories ADD COLUMN scope text NOT NULL DEFAULT 'project'`);
    await sql(`UPDATE memories SET scope = 'team' WHERE project_id IS NULL`);
    await sql(`
      ALTER TABLE memories
        ADD CONSTRAINT memories_scope_valid CHECK (scope IN ('private', 'project', 'team')),
        ADD CONSTRAINT memories_scope_needs_project CHECK (project_id IS NOT NULL OR scope = 'team')`);
    // Team rows are read from every project: found without scanning each project's rows.
    await sql(`CREATE INDEX memories_team ON memories (created_at DESC, id DESC) WHERE scope = 'team'`);
    // Keyword statistics follow visibility: a team row is counted in the tenant-wide bucket (which
    // every project's recall reads), not in the project it started in, and moves there when it is
    // promoted. Rows already counted keep their bucket: only project-less rows became team above.
    await sql(`
      CREATE OR REPLACE FUNCTION memories_count_terms() RETURNS trigger
      LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL THEN
          PERFORM count_terms('memories', CASE WHEN OLD.scope = 'team' THEN NULL ELSE OLD.project_id END,
            OLD.tsv, OLD.tsv_tokens, -1);
        END IF;
        IF TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL THEN
          PERFORM count_terms('memories', CASE WHEN NEW.scope = 'team' THEN NULL ELSE NEW.project_id END,
            NEW.tsv, NEW.tsv_tokens, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await sql(`DROP TRIGGER memories_term_counts_update ON memories`);
    await sql(`
      CREATE TRIGGER memories_term_counts_update AFTER UPDATE ON memories
      FOR EACH ROW WHEN (
        OLD.tsv IS DISTINCT FROM NEW.tsv OR OLD.project_id IS DISTINCT FROM NEW.project_id
        OR OLD.scope IS DISTINCT FROM NEW.scope OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
      ) EXECUTE FUNCTION memories_count_terms()`);

    await sql(`
      CREATE TABLE memory_shares (
        id uuid PRIMARY KEY,
        memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        grantee_user_id uuid,
        grantee_agent_id text,
        permission text NOT NULL CHECK (permission IN ('read', 'write')),
        granted_by_user_id uuid,
        granted_by_agent_id text,
        granted_by_token_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT memory_shares_one_grantee CHECK ((grantee_user_id IS NULL) <> (grantee_agent_id IS NULL))
      )`);
    await sql(`CREATE UNIQUE INDEX memory_shares_memory_user ON memory_shares (memory_id, grantee_user_id)
      WHERE grantee_user_id IS NOT NULL`);
    await sql(`CREATE UNIQUE INDEX memory_shares_memory_agent ON memory_shares (memory_id, grantee_agent_id)
      WHERE grantee_agent_id IS NOT NULL`);
    await sql(`CREATE INDEX memory_shares_user ON memory_shares (grantee_user_id) WHERE grantee_user_id IS NOT NULL`);
    await sql(
      `CREATE INDEX memory_shares_agent ON memory_shares (grantee_agent_id) WHERE grantee_agent_id IS NOT NULL`,
    );

    await sql(`
      CREATE TABLE memory_share_rules (
        id uuid PRIMARY KEY,
        project_id uuid REFERENCES projects (id) ON DELETE CASCADE,
        tag text NOT NULL,
        owner_user_id uuid,
        owner_agent_id text,
        owner_token_id uuid,
        grantee_user_id uuid,
        grantee_agent_id text,
        permission text NOT NULL CHECK (permission IN ('read', 'write')),
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT memory_share_rules_one_grantee CHECK ((grantee_user_id IS NULL) <> (grantee_agent_id IS NULL)),
        CONSTRAINT memory_share_rules_owner CHECK (
          owner_user_id IS NOT NULL OR owner_agent_id IS NOT NULL OR owner_token_id IS NOT NULL)
      )`);
    await sql(`CREATE INDEX memory_share_rules_user ON memory_share_rules (grantee_user_id)
      WHERE grantee_user_id IS NOT NULL`);
    await sql(`CREATE INDEX memory_share_rules_agent ON memory_share_rules (grantee_agent_id)
      WHERE grantee_agent_id IS NOT NULL`);

    await sql(`
      CREATE TABLE memory_reviews (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('promotion', 'contradiction')),
        memory_id uuid NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
        other_memory_id uuid REFERENCES memories (id) ON DELETE CASCADE,
        from_scope text CHECK (from_scope IN ('private', 'project', 'team')),
        to_scope text CHECK (to_scope IN ('project', 'team')),
        note text,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        resolution text,
        decision_reason text,
        proposed_by_user_id uuid,
        proposed_by_agent_id text,
        proposed_by_token_id uuid,
        decided_by_user_id uuid,
        decided_by_agent_id text,
        decided_by_token_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz,
        author_notified_at timestamptz,
        CONSTRAINT memory_reviews_promotion CHECK (kind <> 'promotion' OR to_scope IS NOT NULL),
        CONSTRAINT memory_reviews_contradiction CHECK (kind <> 'contradiction' OR other_memory_id IS NOT NULL)
      )`);
    await sql(
      `CREATE INDEX memory_reviews_pending ON memory_reviews (project_id, created_at) WHERE status = 'pending'`,
    );
    await sql(`CREATE UNIQUE INDEX memory_reviews_one_pending_promotion ON memory_reviews (memory_id)
      WHERE status = 'pending' AND kind = 'promotion'`);
    await sql(`CREATE UNIQUE INDEX memory_reviews_one_pending_contradiction ON memory_reviews (memory_id, other_memory_id)
      WHERE status = 'pending' AND kind = 'contradiction'`);
    await sql(`CREATE INDEX memory_reviews_memory ON memory_reviews (memory_id)`);

    await sql(`
      CREATE TABLE broadcasts (
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        seq bigint NOT NULL CHECK (seq > 0),
        type text NOT NULL CHECK (type IN ('ASSIGN', 'MERGE', 'REJECT', 'REVISE', 'STATUS', 'PROPOSED', 'DEPENDENCY')),
        summary text NOT NULL CHECK (char_length(summary) BETWEEN 1 AND 1000),
        files text[] NOT NULL DEFAULT '{}',
        reply_to bigint,
        assignee text,
        author_user_id uuid,
        author_agent_id text,
        author_token_id uuid,
        at timestamptz NOT NULL DEFAULT now(),
        prev_hash bytea NOT NULL,
        hash bytea NOT NULL,
        PRIMARY KEY (project_id, seq)
      )`);
    await sql(`CREATE INDEX broadcasts_assignee ON broadcasts (project_id, assignee, seq) WHERE assignee IS NOT NULL`);
    await sql(`CREATE INDEX broadcasts_type ON broadcasts (project_id, type, seq)`);
    // Append-only: no update, and a delete only as part of deleting the project itself.
    await sql(`
      CREATE FUNCTION broadcasts_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        project_alive boolean;
      BEGIN
        IF TG_OP = 'DELETE' THEN
          -- The table's own schema, whatever the caller's search path.
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.projects WHERE id = $1)', TG_TABLE_SCHEMA)
            INTO project_alive USING OLD.project_id;
          IF NOT project_alive THEN
            RETURN OLD;
          END IF;
        END IF;
        RAISE EXCEPTION 'broadcasts are append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await sql(`
      CREATE TRIGGER broadcasts_append_only BEFORE UPDATE OR DELETE ON broadcasts
      FOR EACH ROW EXECUTE FUNCTION broadcasts_refuse_change()`);
    await sql(`
      CREATE TRIGGER broadcasts_no_truncate BEFORE TRUNCATE ON broadcasts
      FOR EACH STATEMENT EXECUTE FUNCTION broadcasts_refuse_change()`);

    await sql(`
      CREATE TABLE broadcast_acks (
        project_id uuid NOT NULL,
        seq bigint NOT NULL,
        agent_key text NOT NULL,
        acked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (project_id, agent_key, seq),
        FOREIGN KEY (project_id, seq) REFERENCES broadcasts (project_id, seq) ON DELETE CASCADE
      )`);
    await sql(`
      CREATE TABLE broadcast_channels (
        project_id uuid PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
        key_hash bytea,
        key_salt bytea,
        key_params jsonb,
        key_set_at timestamptz
      )`);
  },
};
