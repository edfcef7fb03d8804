/** Session event kinds agents record; they feed the briefing's recent events. */
export const EVENT_KINDS = ['file_written', 'error', 'decision', 'session_start', 'session_end', 'custom'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** Most session events one listing returns. */
export const EVENTS_MAX_LIMIT = 200;

/** The working-memory key under which `session_summarize` keeps the latest summary. */
export const LAST_SESSION_SUMMARY_KEY = 'last_session_summary';

/** One private working-memory entry of an agent in a project. */
export interface WorkingMemoryEntry {
  readonly key: string;
  readonly value: string;
  readonly importance: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** An entry pushed out of working memory at the cap, and the long-term memory now holding it. */
export interface EvictedEntry {
  readonly key: string;
  readonly memoryId: string;
}

export interface RememberResult {
  readonly entry: WorkingMemoryEntry;
  /** Entries moved into long-term memory to stay within the cap; empty when nothing was. */
  readonly evicted: EvictedEntry[];
  /** Secrets in the value replaced by placeholders (types and counts); empty when none. */
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}

export interface SessionEvent {
  readonly id: string;
  readonly kind: EventKind;
  readonly summary: string;
  readonly details: Record<string, unknown> | null;
  /** The agent key (`agent:…`, `user:…` or `token:…`) that recorded it. */
  readonly agent: string;
  readonly createdAt: Date;
}

/** A session event as recording it answers: what was stored, and what was redacted on the way. */
export interface RecordedEvent extends SessionEvent {
  /** Secrets in the summary and details replaced by placeholders (types and counts); empty when none. */
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}

export interface SummaryResult {
  /** The knowledge-base document archiving the summary (retention tier `summary`). */
  readonly document: { readonly id: string; readonly source: string; readonly expiresAt: Date };
  readonly entry: WorkingMemoryEntry;
  readonly evicted: EvictedEntry[];
  /** Secrets in the summary replaced by placeholders (types and counts); empty when none. */
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}
