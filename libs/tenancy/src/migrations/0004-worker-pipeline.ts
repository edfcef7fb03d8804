import { type Migration } from '@cairn/db';

/**
 * What the worker produces from what clients send: file summaries (L0/L1), session
 * summaries and fact extraction requests with their proposals, tenant settings, and the
 * state of re-embedding backfills after a model switch.
 */
export const workerPipeline: Migration = {
  version: 4,
  name: 'worker-pipeline',
  async up(sql) {
    await sql(`
      CREATE TABLE file_summaries (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        path text NOT NULL,
        content_hash text NOT NULL,
        -- The file's text, kept only until it is summarized.
        content text,
        status text NOT NULL CHECK (status IN ('pending', 'ready', 'failed')),
        l0 text,
        l1 text,
        generated_by text,
        flagged_injection boolean NOT NULL DEFAULT false,
        error text,
        requested_by_user_id uuid,
        requested_by_agent_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (project_id, path, content_hash)
      )`);
    await sql(`CREATE INDEX file_summaries_path ON file_summaries (project_id, path, updated_at DESC)`);

    await sql(`
      CREATE TABLE generation_requests (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('session_summary', 'fact_extraction')),
        -- The transcript or session text, kept only until it is processed.
        input text,
        input_hash text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
        result jsonb,
        generated_by text,
        flagged_injection boolean NOT NULL DEFAULT false,
        error text,
        requested_by_user_id uuid,
        requested_by_agent_id text,
        requested_by_token_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
    await sql(`CREATE INDEX generation_requests_project ON generation_requests (project_id, created_at DESC)`);

    await sql(`
      CREATE TABLE memory_proposals (
        id uuid PRIMARY KEY,
        project_id uuid NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
        request_id uuid REFERENCES generation_requests (id) ON DELETE SET NULL,
        content text NOT NULL,
        category text NOT NULL,
        importance smallint NOT NULL CHECK (importance BETWEEN 1 AND 5),
        confidence real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
        tags text[] NOT NULL DEFAULT '{}',
        keywords text[] NOT NULL DEFAULT '{}',
        status text NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected')),
        memory_id uuid REFERENCES memories (id) ON DELETE SET NULL,
        decided_by_user_id uuid,
        decided_by_agent_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        decided_at timestamptz
      )`);
    await sql(
      `CREATE INDEX memory_proposals_pending ON memory_proposals (project_id, created_at DESC) WHERE status = 'pending'`,
    );

    await sql(`
      CREATE TABLE tenant_settings (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await sql(`
      CREATE TABLE embedding_backfills (
        model text PRIMARY KEY,
        dimensions integer NOT NULL,
        status text NOT NULL CHECK (status IN ('running', 'done')),
        embedded integer NOT NULL DEFAULT 0,
        started_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz
      )`);
  },
};
