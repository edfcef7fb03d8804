export const GENERATION_KINDS = ['session_summary', 'fact_extraction'] as const;
export type GenerationKind = (typeof GENERATION_KINDS)[number];

export const GENERATION_STATUSES = ['pending', 'done', 'failed'] as const;
export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

/** Transcripts and session texts the generation routes accept. */
export const TRANSCRIPT_MAX_CHARS = 200_000;

/** A session summary or fact extraction asked for by a client and done by the worker. */
export interface GenerationRequestRow {
  readonly id: string;
  readonly projectId: string;
  readonly kind: GenerationKind;
  readonly status: GenerationStatus;
  readonly result: Record<string, unknown> | null;
  readonly generatedBy: string | null;
  readonly flaggedInjection: boolean;
  readonly error: string | null;
  readonly requestedBy: {
    readonly userId: string | null;
    readonly agentId: string | null;
    readonly tokenId: string | null;
  };
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

/** What a job handler reads: the row plus its input and the project's slug. */
export interface GenerationJobRow extends GenerationRequestRow {
  readonly input: string | null;
  readonly projectSlug: string;
  /** When the transcript's conversation took place, if the requester said so. */
  readonly occurredAt: Date | null;
}
