/** The briefing as returned: JSON-ready (ISO strings), since its size is what the budget bounds. */

export interface WorkingMemoryItem {
  readonly key: string;
  readonly value: string;
  readonly importance: number;
  readonly updatedAt: string;
}

export interface TimeAnchor {
  /** Now, ISO 8601 in UTC. */
  readonly now: string;
  readonly timezone: string;
  /** Now in `timezone`, ISO 8601 with its offset. */
  readonly local: string;
  /** Now in `timezone`, for reading: `Sunday, 2026-03-01 23:30`. */
  readonly localText: string;
  readonly utcOffset: string;
  /** The previous briefing of this agent here, else of anyone here; null on a first visit. */
  readonly lastSeenAt: string | null;
  readonly lastSeenSource: 'agent' | 'project' | null;
  /** `3 days, 4 hours`; null on a first visit. */
  readonly gap: string | null;
  readonly gapSeconds: number | null;
  /** What was added since `lastSeenAt`; null on a first visit. */
  readonly since: { readonly memories: number; readonly events: number } | null;
}

export interface NewMemoryItem {
  readonly id: string;
  /** At most 300 characters; the full text is one `GET …/memories/{id}` away. */
  readonly content: string;
  readonly category: string;
  readonly importance: number;
  /** Who sees it. */
  readonly scope: 'private' | 'project' | 'team';
  readonly agentId: string | null;
  readonly createdAt: string;
}

export interface EventItem {
  readonly id: string;
  readonly kind: string;
  readonly summary: string;
  readonly agent: string;
  readonly createdAt: string;
  /** Recorded after `lastSeenAt`. */
  readonly new: boolean;
}

/** A decided review of one of the caller's memories, told once (issue 14: the author learns the outcome). */
export interface ReviewOutcomeItem {
  readonly reviewId: string;
  readonly kind: 'promotion' | 'contradiction';
  readonly status: 'approved' | 'rejected';
  readonly memoryId: string;
  /** The scope a promotion asked for. */
  readonly toScope: string | null;
  /** How a contradiction was resolved: keep_both, supersede or reject_new. */
  readonly resolution: string | null;
  readonly reason: string | null;
  readonly decidedAt: string;
}

/** A coordination-channel message as the briefing shows it: unverified agent content. */
export interface ChannelItem {
  readonly seq: number;
  readonly type: string;
  /** At most 300 characters; broadcast_read has the whole message. */
  readonly summary: string;
  /** Agent id, else `user:<id>`, else `token:<id>`. */
  readonly author: string;
  readonly assignee: string | null;
  readonly at: string;
}

export interface LastSummary {
  readonly text: string;
  readonly updatedAt: string;
  /** True when the budget only left room for the beginning of it. */
  readonly clipped: boolean;
}

export interface SystemStatus {
  /** `hybrid` when an embedder is configured; `keyword` when search cannot use vectors. */
  readonly searchMode: 'hybrid' | 'keyword';
  readonly embeddingModel: {
    readonly id: string;
    readonly provider: string;
    readonly dimensions: number;
    readonly builtIn: boolean;
  } | null;
  /** Waiting, active or delayed embedding jobs; null when Redis did not answer. */
  readonly pendingEmbeddingJobs: number | null;
  /** The project's memories with no vector of the active model yet (found by keyword meanwhile). */
  readonly memoriesWithoutVector: number;
  readonly notes: string[];
}

/** The project's card (stack, layout, commands, conventions…), rendered to fit its share of the budget. */
export interface ProjectCardItem {
  readonly version: number;
  /** Compact markdown; project_card returns the whole card. */
  readonly text: string;
  /** True when the budget left room for only part of the card (lists cut, notes shortened). */
  readonly clipped: boolean;
}

/** The sections the budget may shorten, in the order they are filled. */
export const BRIEFING_SECTIONS = [
  'workingMemory.critical',
  'status',
  'reviewOutcomes',
  'channel',
  'projectCard',
  'lastSummary',
  'workingMemory.normal',
  'newMemories',
  'recentEvents',
  'workingMemory.ephemeral',
] as const;
export type BriefingSection = (typeof BRIEFING_SECTIONS)[number];

export interface Briefing {
  readonly project: string;
  readonly agent: string;
  readonly timeAnchor: TimeAnchor;
  readonly workingMemory: {
    readonly critical: WorkingMemoryItem[];
    readonly normal: WorkingMemoryItem[];
    readonly ephemeral: WorkingMemoryItem[];
    /** Entries the agent holds, shown or not. */
    readonly total: number;
    readonly cap: number;
  };
  readonly lastSummary: LastSummary | null;
  /** The project's card; null when the project has none (or the budget left no room for it). */
  readonly projectCard: ProjectCardItem | null;
  readonly newMemories: NewMemoryItem[];
  readonly recentEvents: EventItem[];
  /**
   * The project's coordination channel: messages addressed to this agent it has not acknowledged
   * (and how many more there are), each agent's latest STATUS. Unverified agent content.
   */
  readonly channel: {
    readonly addressedToYou: ChannelItem[];
    readonly moreAddressedToYou: number;
    readonly latestStatus: ChannelItem[];
  };
  readonly status: SystemStatus | null;
  /** Decisions on the caller's memories not told before, each told once; absent when there are none. */
  readonly reviewOutcomes?: ReviewOutcomeItem[];
  /** Estimated tokens (characters / 4 of each serialised section). */
  readonly budget: { readonly limit: number; readonly used: number };
  /** Per section, how many items the budget left out (1 for a summary or status left out or clipped). */
  readonly truncated: Partial<Record<BriefingSection, number>>;
  /** A compact markdown rendering of the same content, for agents that read text. */
  readonly text: string;
}
