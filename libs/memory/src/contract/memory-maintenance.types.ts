/** One decay step: unused memories' confidence times `factor`, never below `floor`. */
export interface DecayOptions {
  readonly olderThanDays: number;
  readonly factor: number;
  readonly floor: number;
}

/** Which memories a prune archives: low confidence, unused within the window, at most `limit`. */
export interface PruneOptions {
  readonly maxConfidence: number;
  readonly olderThanDays: number;
  readonly limit: number;
  readonly dryRun: boolean;
}

/** Where a walk over a scope's memories stands: newest first, `(createdAt, id)` descending. */
export interface WalkPosition {
  /** `created_at` in microseconds since the epoch, as text: exact (a JS Date would drop the microseconds). */
  readonly at: string;
  readonly id: string;
}

/** One memory's candidate duplicate, found from `probe`. */
export interface DuplicateCandidate {
  readonly probe: string;
  readonly other: string;
  readonly similarity: number;
  readonly reason: 'same_content' | 'similar_vector';
  /** The partner comes before the probe in the walk (newer): the walk has met it already. */
  readonly otherFirst: boolean;
}

export interface DuplicateOptions {
  readonly threshold: number;
  /** Partners per memory and per kind (equal text, nearest vectors). */
  readonly perMemory: number;
}
