import { randomUUID } from 'node:crypto';
import { createProject, createTenant, issueToken, type TenantFixture, type TestClient } from '@cairn/testing';
import { type ApiHarness } from './api-harness';

export interface MemoryWorld {
  readonly tenant: TenantFixture;
  readonly project: string;
  readonly otherProject: string;
  /** Agent token scoped to `project` only. */
  readonly agent: TestClient;
  /** A second agent in the same project (different agentId). */
  readonly otherAgent: TestClient;
  readonly member: TestClient;
  readonly admin: TestClient;
  readonly reader: TestClient;
  /** An agent token with every project of the tenant. */
  readonly wideAgent: TestClient;
}

/** A tenant with two projects and tokens of each role, made through the admin API. */
export async function memoryWorld(api: ApiHarness): Promise<MemoryWorld> {
  const tenant = await createTenant(api.admin);
  const project = (await createProject(api.admin, tenant.slug)).slug;
  const otherProject = (await createProject(api.admin, tenant.slug)).slug;
  const token = async (role: string, projects: '*' | string[], agentId?: string) =>
    api.client.as((await issueToken(api.admin, tenant.slug, { role, projects, agentId })).token);
  return {
    tenant,
    project,
    otherProject,
    agent: await token('agent', [project], 'claude-code:alice'),
    otherAgent: await token('agent', [project], 'cursor:bob'),
    member: await token('member', '*'),
    admin: await token('admin', '*'),
    reader: await token('reader', [project]),
    wideAgent: await token('agent', '*', 'codex:carol'),
  };
}

export function memoriesUrl(project: string, suffix = ''): string {
  return `/v1/projects/${project}/memories${suffix}`;
}

/** Stores a memory and returns it, failing loudly on anything but 201. */
export async function store(client: TestClient, project: string, body: Record<string, unknown>) {
  const response = await client.post(memoriesUrl(project), body);
  if (response.status !== 201) throw new Error(`store: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { memory: { id: string } & Record<string, unknown>; warnings: any[]; embedding: string };
}

/**
 * One memory line of the export format (`cairn.memories` v1), for seeding memories with a
 * past through the import API; every field can be overridden.
 */
export function importLine(overrides: Record<string, unknown> = {}): Record<string, unknown> & { id: string } {
  const at = '2024-03-01T10:00:00.000Z';
  return {
    id: randomUUID(),
    scope: 'project',
    content: 'Imported fact',
    category: 'fact',
    tags: [],
    keywords: [],
    importance: 3,
    confidence: 0.8,
    source: null,
    pinned: false,
    stale: false,
    verifiedAt: null,
    archived: false,
    archivedAt: null,
    supersededBy: null,
    version: 1,
    accessCount: 0,
    lastAccessedAt: null,
    createdAt: at,
    updatedAt: at,
    author: { userId: null, agentId: 'claude-code:alice' },
    relations: [],
    ...overrides,
  };
}
