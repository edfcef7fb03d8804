import { type DatabaseSync } from './sqlite';

/** The last briefing of a project (`recall_context` / `POST …/context`) as it was answered. */
export interface SavedBriefing {
  /** The briefing's text, as an agent reads it. */
  readonly text: string;
  /** Its structured copy (the tool's structuredContent or the REST body), when there was one. */
  readonly structured: Record<string, unknown> | null;
  readonly fetchedAt: number;
}

/** What the MCP endpoint answered to `initialize` and `tools/list`, for starting a client offline. */
export interface SavedToolCatalog {
  readonly initialize: Record<string, unknown>;
  readonly tools: Record<string, unknown>;
  readonly fetchedAt: number;
}

/**
 * The answers the cache keeps whole, one per key: the last briefing per project, the last tool
 * catalog, and the change feed's cursor per project. All per identity.
 */
export class SavedAnswersRepository {
  constructor(
    private readonly db: DatabaseSync,
    private readonly identityId: number,
  ) {}

  saveBriefing(project: string, briefing: Omit<SavedBriefing, 'fetchedAt'>, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO briefings (identity_id, project, text, structured, fetched_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (identity_id, project) DO UPDATE SET
           text = excluded.text, structured = excluded.structured, fetched_at = excluded.fetched_at`,
      )
      .run(
        this.identityId,
        project,
        briefing.text,
        briefing.structured === null ? null : JSON.stringify(briefing.structured),
        now,
      );
  }

  briefing(project: string): SavedBriefing | undefined {
    const row = this.db
      .prepare('SELECT text, structured, fetched_at FROM briefings WHERE identity_id = ? AND project = ?')
      .get(this.identityId, project) as { text: string; structured: string | null; fetched_at: number } | undefined;
    return (
      row && {
        text: row.text,
        structured: row.structured === null ? null : (JSON.parse(row.structured) as Record<string, unknown>),
        fetchedAt: Number(row.fetched_at),
      }
    );
  }

  saveToolCatalog(catalog: Omit<SavedToolCatalog, 'fetchedAt'>, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO tool_catalogs (identity_id, initialize, tools, fetched_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (identity_id) DO UPDATE SET
           initialize = excluded.initialize, tools = excluded.tools, fetched_at = excluded.fetched_at`,
      )
      .run(this.identityId, JSON.stringify(catalog.initialize), JSON.stringify(catalog.tools), now);
  }

  toolCatalog(): SavedToolCatalog | undefined {
    const row = this.db
      .prepare('SELECT initialize, tools, fetched_at FROM tool_catalogs WHERE identity_id = ?')
      .get(this.identityId) as { initialize: string; tools: string; fetched_at: number } | undefined;
    return (
      row && {
        initialize: JSON.parse(row.initialize) as Record<string, unknown>,
        tools: JSON.parse(row.tools) as Record<string, unknown>,
        fetchedAt: Number(row.fetched_at),
      }
    );
  }

  feedCursor(project: string): { cursor: string; syncedAt: number } | undefined {
    const row = this.db
      .prepare('SELECT cursor, synced_at FROM feed_cursors WHERE identity_id = ? AND project = ?')
      .get(this.identityId, project) as { cursor: string; synced_at: number } | undefined;
    return row && { cursor: row.cursor, syncedAt: Number(row.synced_at) };
  }

  saveFeedCursor(project: string, cursor: string, now = Date.now()): void {
    this.db
      .prepare(
        `INSERT INTO feed_cursors (identity_id, project, cursor, synced_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (identity_id, project) DO UPDATE SET cursor = excluded.cursor, synced_at = excluded.synced_at`,
      )
      .run(this.identityId, project, cursor, now);
  }
}
