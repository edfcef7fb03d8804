import { type AgentDefaultScope } from '@cairn/memory';
import { type RetentionChanges, type RetentionView } from '@cairn/retention';
import { type SecretsMode } from '@cairn/secrets';

export const EXTRACTION_MODES = ['proposals', 'memories'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

/** The settings a tenant admin may change, as the API shows them. */
export interface TenantSettings {
  /** `proposals`: extracted facts wait for a member to accept them; `memories`: stored at once. */
  readonly extractionMode: ExtractionMode;
  /** Secrets found in written text: `redact` (default) to placeholders, `reject` the write, or `allow` them. */
  readonly secrets: SecretsMode;
  /** When non-empty, `kb_fetch` reaches only these hosts (`example.com`, `*.example.com`). */
  readonly fetchAllowHosts: string[];
  /** Hosts `kb_fetch` never reaches, in the same forms; wins over the allow list. */
  readonly fetchDenyHosts: string[];
  /** What a memory an agent stores without a scope gets: `project` (default) or `private` (@cairn/memory's own). */
  readonly agentDefaultScope: AgentDefaultScope;
  /** Days the audit log and each knowledge-base tier are kept: effective, the tenant's own, the installation's (@cairn/retention's own). */
  readonly retention: RetentionView;
}

/** A change of the settings: only the named ones change; `retention` takes numbers, or null for the installation's default. */
export type TenantSettingsChanges = Partial<Omit<TenantSettings, 'retention'>> & {
  readonly retention?: RetentionChanges;
};

/**
 * A host pattern of a fetch list: a lower-case DNS name (or IP literal) with an optional leading
 * `*.` for its subdomains. No scheme, port, path or wildcard elsewhere: those would never match.
 */
export const FETCH_HOST_PATTERN =
  /^(\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
export const FETCH_HOSTS_MAX = 200;
