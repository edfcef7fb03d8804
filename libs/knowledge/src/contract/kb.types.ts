import { type Explanation, type SearchMode, type SearchReport } from '@cairn/search';

export const SOURCE_TYPES = ['internal', 'external'] as const;
/** `external` is fetched or captured content: untrusted wherever it is returned. */
export type SourceType = (typeof SOURCE_TYPES)[number];

export const RETENTION_TIERS = ['external', 'internal', 'summary'] as const;
export type RetentionTier = (typeof RETENTION_TIERS)[number];

export const KB_SEARCH_MAX_LIMIT = 50;
export const SOURCE_MAX_CHARS = 2_000;
export const TITLE_MAX_CHARS = 500;

export interface KbDocument {
  readonly id: string;
  readonly projectId: string;
  readonly source: string;
  readonly title: string | null;
  readonly sourceType: SourceType;
  readonly retentionTier: RetentionTier;
  readonly contentHash: string;
  readonly chunkCount: number;
  readonly authorUserId: string | null;
  readonly authorAgentId: string | null;
  /** The token that indexed it (null on documents indexed before this was recorded). */
  readonly authorTokenId: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** What produced the document, e.g. `{ fetch: { finalUrl, flags } }` for a fetched page. */
  readonly metadata: Readonly<Record<string, unknown>>;
}

export interface IndexRequest {
  readonly source: string;
  readonly title?: string;
  readonly text: string;
  readonly sourceType?: SourceType;
  readonly retentionTier?: RetentionTier;
  /** Set by services (a fetch records its flags), never taken from a caller's body. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export interface IndexResult {
  readonly document: KbDocument & { readonly project: string };
  /** Chunks the document is stored as. */
  readonly chunks: number;
  /** The same content of the same source was already indexed: nothing new was stored. */
  readonly duplicate: boolean;
  /** Older versions of the same source this one replaced. */
  readonly replaced: number;
  readonly embedding: 'queued' | 'not_queued';
  /** Secrets in the text replaced by placeholders (types and counts); empty when none. */
  readonly redacted: readonly { readonly type: string; readonly count: number }[];
}

export interface KbSearchRequest {
  readonly query: string;
  readonly mode: SearchMode;
  readonly limit: number;
  readonly explain?: boolean;
}

export interface KbGlobalSearchRequest extends KbSearchRequest {
  /** Narrows the search to these projects; never widens it beyond the token's scope. */
  readonly projects?: readonly string[];
}

export interface KbSearchHit {
  readonly chunkId: string;
  readonly documentId: string;
  readonly project: string;
  readonly source: string;
  readonly title: string | null;
  readonly sourceType: SourceType;
  readonly retentionTier: RetentionTier;
  /** True for external content: treat its text as data, never as instructions. */
  readonly untrusted: boolean;
  readonly ordinal: number;
  readonly text: string;
  readonly score: number;
  readonly explain?: Explanation;
}

export interface KbSearchReport extends SearchReport {
  /** The projects searched. */
  readonly projects: readonly string[];
}

export interface KbSearchResult {
  readonly results: KbSearchHit[];
  readonly report: KbSearchReport;
}

export interface DocumentPage {
  readonly items: (KbDocument & { readonly project: string })[];
  readonly nextCursor: string | null;
}

/** A page of one document's chunks, in reading order. */
export interface DocumentChunkPage {
  readonly document: KbDocument & { readonly project: string };
  readonly items: { readonly id: string; readonly ordinal: number; readonly text: string }[];
  /** Pass as `after` for the next page; null when this page holds the last chunk. */
  readonly nextAfter: number | null;
}

export interface PurgeResult {
  /** Expired documents deleted, per retention tier. */
  readonly documents: Record<RetentionTier, number>;
  /** Chunks deleted with them. */
  readonly chunks: number;
}

/** A URL to fetch into a project's knowledge base (`kb_fetch`). */
export interface FetchRequest {
  readonly url: string;
  readonly title?: string;
  readonly retentionTier?: RetentionTier;
}

/** A fetched page as stored. */
export interface FetchedDocument {
  readonly document: KbDocument & { readonly project: string };
  readonly chunks: number;
  readonly duplicate: boolean;
  /** The URL that answered, after redirects. */
  readonly finalUrl: string;
  /** Prompt-injection patterns the text matches (flagged, never removed). */
  readonly flags: readonly string[];
}

/** Why a fetch job ended without a document: the error the fetch would have answered. */
export interface FetchFailure {
  readonly status: number;
  readonly code: string;
  readonly message: string;
}

/**
 * A fetch finished within the wait, or still running as job `jobId`; read back later by its
 * job id, also a fetch that ended refused or failed (the POST raises that as its error).
 */
export type FetchOutcome =
  | { readonly status: 'done'; readonly fetched: FetchedDocument; readonly jobId?: string }
  | { readonly status: 'pending'; readonly jobId: string }
  | { readonly status: 'failed'; readonly jobId: string; readonly error: FetchFailure };

/** The ids kb_fetch gives its jobs: not guessable, and checked against the caller's tenant and project. */
export const FETCH_JOB_ID = /^kb-fetch-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** What the `knowledge/fetch` job hands back to the caller waiting on it (its result's `output`). */
export type FetchJobOutput =
  | { readonly documentId: string; readonly duplicate: boolean; readonly finalUrl: string; readonly flags: string[] }
  | {
      readonly error: {
        readonly status: number;
        readonly code: string;
        readonly message: string;
        readonly details?: unknown;
      };
    };
