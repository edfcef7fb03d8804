import { SNAPSHOT_EXAMPLE as EX } from '@cairn/db';
import { type MemoryFilter, type MemoryScope } from './contract/memory-filter';
import { type RestoredMemory } from './contract/memory-sync.types';
import { type Memory, type MemoryFields } from './contract/memory.types';
import { type MemoryViewer, SYSTEM_VIEWER } from './contract/memory-viewer';

/**
 * Example arguments of memory's repository methods for the SQL snapshots (tools/sql-snapshots
 * calls each method with them; see @SqlSnapshot). Values only, naming the example rows.
 */

/** The example token's reader: a user working through an agent. */
export const EXAMPLE_READER: MemoryViewer = { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId };

/** What that reader sees of the example project: its memories and the team's, private ones by the rule. */
export const EXAMPLE_SCOPE: MemoryScope = {
  projectIds: [EX.projectId],
  includeTenantWide: true,
  viewer: EXAMPLE_READER,
};

/** What a job sees of the example project: every memory of it, whatever its scope. */
export const EXAMPLE_SYSTEM_SCOPE: MemoryScope = {
  projectIds: [EX.projectId],
  includeTenantWide: false,
  viewer: SYSTEM_VIEWER,
};

/** Every filter a list or a recall may set, so each of their conditions shows. */
export const EXAMPLE_FULL_FILTER: MemoryFilter = {
  scope: EXAMPLE_SCOPE,
  categories: ['decision', 'bug'],
  tags: ['deploy'],
  authorAgentId: EX.agentId,
  authorUserId: EX.userId,
  createdAfter: EX.date,
  createdBefore: EX.future,
  occurredFrom: EX.date,
  occurredBefore: EX.future,
  stale: false,
  pinned: true,
  includeArchived: true,
  includeSuperseded: true,
};

export const EXAMPLE_FIELDS: MemoryFields = {
  content: 'Staging deploys run from the release branch through Helm.',
  category: 'decision',
  tags: ['deploy'],
  keywords: ['helm', 'staging'],
  importance: 4,
  confidence: 0.9,
  source: { path: 'deploy/helm/values.yaml', line: 12, contentHash: EX.contentHash },
  pinned: false,
  occurredAt: EX.date,
};

/** The example memory as a read returns it. */
export const EXAMPLE_MEMORY: Memory = {
  ...EXAMPLE_FIELDS,
  id: EX.memoryId,
  project: EX.projectSlug,
  projectId: EX.projectId,
  scope: 'project',
  tags: ['deploy'],
  keywords: ['helm', 'staging'],
  source: { path: 'deploy/helm/values.yaml', line: 12, contentHash: EX.contentHash },
  stale: false,
  verifiedAt: null,
  author: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
  sensitive: false,
  version: 1,
  supersededBy: null,
  accessCount: 0,
  lastAccessedAt: null,
  archivedAt: null,
  deletedAt: null,
  occurredAt: EX.date,
  createdAt: EX.date,
  updatedAt: EX.date,
  contentHash: EX.contentHash,
  embedded: false,
};

/** A memory as an export file carries it. */
export const EXAMPLE_RESTORED: RestoredMemory = {
  id: EX.newMemoryId,
  projectId: EX.projectId,
  scope: 'project',
  content: EXAMPLE_FIELDS.content,
  category: 'decision',
  tags: ['deploy'],
  keywords: ['helm'],
  importance: 4,
  confidence: 0.9,
  source: null,
  stale: false,
  verifiedAt: null,
  author: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
  pinned: false,
  version: 2,
  accessCount: 3,
  lastAccessedAt: null,
  archivedAt: null,
  sensitive: false,
  occurredAt: EX.date.toISOString(),
  createdAt: EX.date.toISOString(),
  updatedAt: EX.date.toISOString(),
};
