import { type Migration } from '@cairn/db';
export { TENANT_BASELINE } from './baseline';
import { projects } from './0001-projects';
import { memoryCore } from './0002-memory-core';
import { searchTuning } from './0003-search-tuning';
import { workerPipeline } from './0004-worker-pipeline';
import { duplicateScan } from './0005-duplicate-scan';
import { auditLog } from './0006-audit-log';
import { auditRetention } from './0007-audit-retention';
import { termStatistics } from './0008-term-statistics';
import { occurredAt } from './0009-occurred-at';
import { auditQueue } from './0010-audit-queue';
import { secrets } from './0011-secrets';
import { kbFetch } from './0012-kb-fetch';
import { sensitive } from './0013-sensitive';
import { idempotencyKeys } from './0014-idempotency-keys';
import { duplicateCandidates } from './0015-duplicate-candidates';
import { kbDocumentTokenAuthor } from './0016-kb-document-token-author';
import { teamMemory } from './0017-team-memory';
import { grantNotices } from './0018-grant-notices';
import { idempotencyKeyDigests } from './0019-idempotency-key-digests';
import { termDeltaLookup } from './0020-term-delta-lookup';
import { kbRetainedFrom } from './0021-kb-retained-from';
import { codeIndex } from './0022-code-index';
import { projectCards } from './0023-project-cards';
import { occurredOrder } from './0024-occurred-order';

/**
 * Tenant-schema migrations in order, run with the tenant's schema first on the search
 * path (so statements use unqualified names). Append only; never edit a shipped one.
 */
export const TENANT_MIGRATION_LIST: readonly Migration[] = [
  projects,
  memoryCore,
  searchTuning,
  workerPipeline,
  duplicateScan,
  auditLog,
  auditRetention,
  termStatistics,
  occurredAt,
  auditQueue,
  secrets,
  kbFetch,
  sensitive,
  idempotencyKeys,
  duplicateCandidates,
  kbDocumentTokenAuthor,
  teamMemory,
  grantNotices,
  idempotencyKeyDigests,
  termDeltaLookup,
  kbRetainedFrom,
  codeIndex,
  projectCards,
  occurredOrder,
];

/** Injection token so tests can run the migrator over a list with a failing step. */
export const TENANT_MIGRATIONS = Symbol('TENANT_MIGRATIONS');
