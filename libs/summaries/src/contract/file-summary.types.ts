export const FILE_PATH_MAX_CHARS = 1_024;
export const FILE_CONTENT_MAX_CHARS = 200_000;
export const L0_MAX_CHARS = 100;
export const L1_MAX_CHARS = 1_500;
/** `generated_by` of summaries made without a model. */
export const OUTLINE_FALLBACK = 'fallback:outline';

export const FILE_SUMMARY_STATUSES = ['pending', 'ready', 'failed'] as const;
export type FileSummaryStatus = (typeof FILE_SUMMARY_STATUSES)[number];

export interface FileSummary {
  readonly id: string;
  readonly projectId: string;
  readonly path: string;
  readonly contentHash: string;
  readonly status: FileSummaryStatus;
  readonly l0: string | null;
  readonly l1: string | null;
  readonly generatedBy: string | null;
  readonly flaggedInjection: boolean;
  readonly error: string | null;
  readonly createdAt: Date;
  /** When a client last sent this content for this path: "newest" means most recently sent. */
  readonly updatedAt: Date;
}

/** What the summarizer produces for one file. */
export interface FileSummaryText {
  readonly l0: string;
  readonly l1: string;
  readonly generatedBy: string;
  readonly flaggedInjection: boolean;
}

/** The newest summary of a path, and whether a newer version of the file awaits its own. */
export interface CurrentFileSummary {
  readonly summary: FileSummary;
  readonly stale: boolean;
}
