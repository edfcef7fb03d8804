/** `off` skips the check; `warn` reports and serves; `strict` refuses to start on any difference. */
export type IntegrityMode = 'off' | 'warn' | 'strict';

/**
 * - skipped: CAIRN_INTEGRITY=off
 * - pending: the check is still hashing (warn mode runs it beside start-up)
 * - no-manifest: there is no baseline to compare with (a checkout that never wrote one)
 * - unreadable: the manifest is there but is not a valid manifest
 * - intact: every file matches the baseline, none added or missing
 * - tampered: files were added, changed or are missing
 */
export type IntegrityStatus = 'skipped' | 'pending' | 'no-manifest' | 'unreadable' | 'intact' | 'tampered';

/** One kind of difference: how many, and the first paths (sorted) so the log stays short. */
export interface IntegrityDifference {
  readonly count: number;
  readonly paths: readonly string[];
}

export interface IntegrityReport {
  readonly mode: IntegrityMode;
  readonly status: IntegrityStatus;
  /** Absolute path of the manifest read (or looked for). */
  readonly manifest: string;
  /** The baseline's own dates and version, when it was read. */
  readonly baseline?: { readonly createdAt: string; readonly version?: string };
  /** Files and links hashed or read on disk. */
  readonly checked: number;
  readonly added: IntegrityDifference;
  readonly changed: IntegrityDifference;
  readonly missing: IntegrityDifference;
  /** One sentence for operators: what was found and what to do. */
  readonly detail: string;
}
