import { createHash } from 'node:crypto';
import { SNAPSHOT_EXAMPLE as EX } from '@cairn/db';
import { type LiveTenant, schemaNameFor, type TenantEntry } from '@cairn/tenancy';

/** A repository instance by class name, typed by the few methods the example data uses. */
export type RepositoryLookup = <T>(className: string) => T;

type Author = { userId: string | null; agentId: string | null; tokenId: string };
const USER: Author = { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId };
const OTHER_AGENT: Author = { userId: null, agentId: EX.otherAgentId, tokenId: EX.tokenId };

const memory = (id: string, content: string, author: Author) => ({
  id,
  projectId: EX.projectId,
  scope: 'project',
  content,
  contentHash: createHash('sha256').update(content).digest('hex'),
  category: 'fact',
  tags: ['deploy'],
  keywords: ['helm'],
  importance: 3,
  confidence: 0.8,
  source: null,
  pinned: false,
  author,
});

/** The example tenant as TenantRef and LiveTenant; its schema name is shown as `t_example` in the snapshots. */
export const EXAMPLE_TENANT: LiveTenant = {
  id: EX.tenantId,
  slug: EX.tenantSlug,
  schema: schemaNameFor(EX.tenantId),
  name: 'Example',
};

/**
 * The rows SNAPSHOT_EXAMPLE's ids name, committed before any example runs, made through the
 * repositories themselves: what a method reads before it writes (a key already claimed, a rule
 * already made, an outbox row left behind, audit entries old enough to prune, a data key wrapped
 * by an older master key) exists, so the snapshots show every statement such a method sends.
 */
export async function createExampleData(get: RepositoryLookup, entry: TenantEntry): Promise<void> {
  await get<{ provision(t: object): Promise<unknown> }>('TenantsRepository').provision({
    id: EX.tenantId,
    slug: EX.tenantSlug,
    name: EXAMPLE_TENANT.name,
    schemaName: EXAMPLE_TENANT.schema,
  });
  await get<{ insert(u: object): Promise<unknown> }>('UsersRepository').insert({
    id: EX.userId,
    tenantId: EX.tenantId,
    email: EX.email,
    name: 'Ada',
    role: 'member',
  });
  await get<{ insert(t: object): Promise<unknown> }>('TokensRepository').insert({
    id: EX.tokenId,
    tenantId: EX.tenantId,
    userId: EX.userId,
    agentId: EX.agentId,
    role: 'member',
    projects: [EX.projectSlug],
    toolsets: null,
    defaultProject: EX.projectSlug,
    label: 'example',
    tokenHash: createHash('sha256').update('example').digest(),
    hint: 'cairn_st_exa…',
    createdBy: 'example',
    expiresAt: EX.future,
  });
  await entry.transaction(EXAMPLE_TENANT, async () => {
    await get<{ insert(p: object): Promise<unknown> }>('ProjectsRepository').insert({
      id: EX.projectId,
      slug: EX.projectSlug,
      name: 'Web',
    });
    const memories = get<{ insert(m: object): Promise<unknown> }>('MemoriesRepository');
    await memories.insert(memory(EX.memoryId, 'Staging deploys run from the deploy branch through Helm.', USER));
    await memories.insert(memory(EX.otherMemoryId, 'Staging deploys run by hand on Fridays.', OTHER_AGENT));
    await get<{ claim(...args: unknown[]): Promise<unknown> }>('IdempotencyKeysRepository').claim(
      EX.projectId,
      EX.tokenId,
      { key: 'example-key', digest: EX.contentHash },
      EX.memoryId,
    );
    await get<{ insert(request: object): Promise<unknown> }>('GenerationRequestsRepository').insert({
      id: EX.requestId,
      projectId: EX.projectId,
      kind: 'fact_extraction',
      input: 'transcript',
      inputHash: EX.contentHash,
      requestedBy: USER,
    });
    await get<{ insert(document: object): Promise<unknown> }>('KbDocumentsRepository').insert({
      id: EX.documentId,
      projectId: EX.projectId,
      source: 'https://example.com/docs/deploy',
      title: 'Deploying',
      sourceType: 'external',
      retentionTier: 'external',
      contentHash: EX.contentHash,
      chunkCount: 1,
      authorUserId: EX.userId,
      authorAgentId: EX.agentId,
      authorTokenId: EX.tokenId,
      metadata: {},
      retentionDays: 14,
    });
    await get<{ lockOrCreate(...args: unknown[]): Promise<unknown> }>('CodeBranchesRepository').lockOrCreate(
      EX.branchId,
      EX.projectId,
      'main',
    );
    await get<{ replace(file: object): Promise<unknown> }>('CodeFilesRepository').replace({
      id: EX.fileId,
      branchId: EX.branchId,
      projectId: EX.projectId,
      path: 'src/deploy.ts',
      contentHash: EX.contentHash,
      size: 27,
      lineCount: 1,
      language: 'typescript',
      content: 'export function deploy() {}',
      commit: null,
      parseError: null,
    });
    await get<{ upsertRule(rule: object): Promise<unknown> }>('MemorySharesRepository').upsertRule({
      projectId: EX.projectId,
      tag: 'deploy',
      grantee: { agentId: EX.otherAgentId },
      permission: 'read',
      owner: USER,
    });
    await get<{ reserve(...args: unknown[]): Promise<unknown> }>('AuditOutboxRepository').reserve(
      EX.outboxId,
      EXAMPLE_TENANT,
      auditEntry(EX.date),
    );
  });
  await get<{ appendMany(schema: string, entries: object[]): Promise<unknown> }>('TenantAuditLog').appendMany(
    EXAMPLE_TENANT.schema,
    [auditEntry(EX.date)],
  );
  await get<{ insertIfAbsent(key: object): Promise<unknown> }>('DataKeysRepository').insertIfAbsent({
    tenantId: EX.tenantId,
    version: 1,
    wrappedKey: Buffer.alloc(60, 1),
    masterKeyId: EX.oldMasterKeyId,
  });
  await get<{ insertPlatformIfAbsent(key: object): Promise<unknown> }>('DataKeysRepository').insertPlatformIfAbsent({
    version: 1,
    wrappedKey: Buffer.alloc(60, 1),
    masterKeyId: EX.oldMasterKeyId,
  });
}

function auditEntry(at: Date) {
  return {
    actor: `token:${EX.tokenId}`,
    action: 'memory_store',
    target: EX.memoryId,
    outcome: 'success',
    status: 200,
    requestId: 'example-request',
    at,
  };
}
