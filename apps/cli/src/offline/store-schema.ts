import { type DatabaseSync } from './sqlite';

/**
 * The local store's schema, one step per version (`PRAGMA user_version`), forward only. Every
 * table but `identities` and `credentials` is keyed by `identity_id`: one identity is one token
 * of one tenant on one server, so two identities' caches and queues never meet, whatever
 * happens to be in the file.
 */
const STEPS: readonly string[] = [
  `
  CREATE TABLE identities (
    id INTEGER PRIMARY KEY,
    server TEXT NOT NULL,
    tenant_id TEXT NOT NULL,
    tenant_slug TEXT NOT NULL,
    token_id TEXT NOT NULL,
    user_id TEXT,
    agent_id TEXT,
    role TEXT NOT NULL,
    default_project TEXT,
    projects TEXT NOT NULL,
    checked_at INTEGER NOT NULL,
    UNIQUE (server, tenant_id, token_id)
  );
  -- A digest of (server, token), never the token: how a short-lived hook finds its identity
  -- without asking the server who it is.
  CREATE TABLE credentials (
    digest TEXT PRIMARY KEY,
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    checked_at INTEGER NOT NULL
  );
  CREATE TABLE memories (
    rowid INTEGER PRIMARY KEY,
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    id TEXT NOT NULL,
    content TEXT NOT NULL,
    keywords TEXT NOT NULL,
    tags TEXT NOT NULL,
    category TEXT NOT NULL,
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    origin TEXT NOT NULL CHECK (origin IN ('recall', 'write', 'feed')),
    cached_at INTEGER NOT NULL,
    used_at INTEGER NOT NULL,
    UNIQUE (identity_id, project, id)
  );
  CREATE INDEX memories_by_use ON memories (identity_id, project, used_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, keywords, tags, category,
    content = 'memories', content_rowid = 'rowid',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content, keywords, tags, category)
    VALUES (new.rowid, new.content, new.keywords, new.tags, new.category);
  END;
  CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, keywords, tags, category)
    VALUES ('delete', old.rowid, old.content, old.keywords, old.tags, old.category);
  END;
  CREATE TRIGGER memories_fts_update AFTER UPDATE OF content, keywords, tags, category ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, content, keywords, tags, category)
    VALUES ('delete', old.rowid, old.content, old.keywords, old.tags, old.category);
    INSERT INTO memories_fts (rowid, content, keywords, tags, category)
    VALUES (new.rowid, new.content, new.keywords, new.tags, new.category);
  END;
  CREATE TABLE briefings (
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    text TEXT NOT NULL,
    structured TEXT,
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (identity_id, project)
  );
  CREATE TABLE tool_catalogs (
    identity_id INTEGER PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE,
    initialize TEXT NOT NULL,
    tools TEXT NOT NULL,
    fetched_at INTEGER NOT NULL
  );
  CREATE TABLE feed_cursors (
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    cursor TEXT NOT NULL,
    synced_at INTEGER NOT NULL,
    PRIMARY KEY (identity_id, project)
  );
  CREATE TABLE write_queue (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    identity_id INTEGER NOT NULL REFERENCES identities (id) ON DELETE CASCADE,
    project TEXT NOT NULL,
    operation TEXT NOT NULL,
    payload TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'conflict', 'rejected')),
    attempts INTEGER NOT NULL DEFAULT 0,
    reason TEXT,
    detail TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX write_queue_by_status ON write_queue (identity_id, status, seq);
  `,
  // 2: the replay lease (replay-lock.repository.ts), once the hooks replay the queue too.
  `
  CREATE TABLE replay_locks (
    identity_id INTEGER PRIMARY KEY REFERENCES identities (id) ON DELETE CASCADE,
    holder TEXT NOT NULL,
    expires_at INTEGER NOT NULL
  );
  `,
];

export const STORE_SCHEMA_VERSION = STEPS.length;

/**
 * Brings the file to the latest version. Cheap when it is there already (one pragma read), so
 * a hook pays nothing; otherwise one exclusive transaction, so two processes opening a new file
 * at once do not both create it. A file from a newer `cairn` is refused rather than guessed at.
 */
export function migrateStore(db: DatabaseSync): void {
  if (userVersion(db) === STORE_SCHEMA_VERSION) return;
  db.exec('BEGIN EXCLUSIVE');
  try {
    const current = userVersion(db);
    if (current > STORE_SCHEMA_VERSION) {
      throw new Error(
        `the offline cache was written by a newer cairn (schema ${current}, this one knows ${STORE_SCHEMA_VERSION})`,
      );
    }
    for (let version = current; version < STORE_SCHEMA_VERSION; version += 1) db.exec(STEPS[version]);
    db.exec(`PRAGMA user_version = ${STORE_SCHEMA_VERSION}`);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

function userVersion(db: DatabaseSync): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
}
