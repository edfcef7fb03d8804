import { type SecretsMode } from '@cairn/secrets';

export const EXTRACTION_MODES = ['proposals', 'memories'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

/** The settings a tenant admin may change, as the API shows them. */
export interface TenantSettings {
  /** `proposals`: extracted facts wait for a member to accept them; `memories`: stored at once. */
  readonly extractionMode: ExtractionMode;
  /** Secrets found in written text: `redact` (default) to placeholders, `reject` the write, or `allow` them. */
  readonly secrets: SecretsMode;
}
