import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { type SessionPrincipal } from '@cairn/access';
import { EmbeddingsModule, EmbeddingTargetsModule } from '@cairn/embeddings';
import { JobQueue, JobsModule } from '@cairn/jobs';
import { ProjectsModule, ProjectsService } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { type LiveTenant, TenancyModule, TenantEntry, TenantsService, toLiveTenant } from '@cairn/tenancy';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type StoreMemoryInput, type WriteResult } from './contract/memory-write.types';
import { MemoryModule } from './memory.module';
import { MemoryWriter } from './memory-writer.service';

/**
 * The store pipeline's seams against real PostgreSQL and Redis: the contradiction search runs
 * before the write's transaction, and what it finds is recorded in that transaction, so a
 * review is queued exactly once, a refused store leaves nothing, and what the store
 * supersedes is not reported as contradicting it.
 */
describe('MemoryWriter.store: a pipeline of steps (integration)', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  let tenant: LiveTenant;
  let entry: TenantEntry;
  let writer: MemoryWriter;
  const prefix = `mst${randomBytes(4).toString('hex')}`;

  const principal = (agentId: string): SessionPrincipal => ({
    kind: 'session',
    tokenId: randomUUID(),
    tenant,
    role: 'agent',
    userId: null,
    agentId,
    projects: ['web'],
    defaultProject: 'web',
    toolsets: [],
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  const agentA = () => principal('agent-a');
  const fields = (content: string, more: Partial<StoreMemoryInput> = {}): StoreMemoryInput => ({
    content,
    category: 'fact',
    tags: [],
    keywords: [],
    importance: 3,
    confidence: 0.8,
    source: null,
    pinned: false,
    supersedes: [],
    ...more,
  });
  const store = (by: SessionPrincipal, input: StoreMemoryInput, key?: string): Promise<WriteResult> =>
    entry.run(tenant, () => writer.store('web', by, input, key));
  const count = async (sql: string, params: unknown[]): Promise<number> => {
    const rows = await moduleRef
      .get(DataSource)
      .query<{ n: number }[]>(sql.replaceAll('$schema', `"${tenant.schema}"`), params);
    return rows[0]?.n ?? 0;
  };
  const reviewsOf = (memoryId: string) =>
    count(`SELECT count(*)::int AS n FROM $schema.memory_reviews WHERE memory_id = $1`, [memoryId]);
  const contradictsFrom = (memoryId: string) =>
    count(`SELECT count(*)::int AS n FROM $schema.memory_relations WHERE from_id = $1 AND type = 'contradicts'`, [
      memoryId,
    ]);

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { QUEUE_PREFIX: prefix });
    moduleRef = await createDbTestingModule(config, [
      TenancyModule,
      ProjectsModule,
      JobsModule,
      EmbeddingsModule,
      EmbeddingTargetsModule,
      SearchModule,
      MemoryModule,
    ]);
    entry = moduleRef.get(TenantEntry);
    writer = moduleRef.get(MemoryWriter);
    tenant = toLiveTenant(await moduleRef.get(TenantsService).create({ slug: 'store-steps', name: 'Store steps' }));
    await entry.run(tenant, () => moduleRef.get(ProjectsService).create({ slug: 'web', name: 'Web' }));
  });

  afterAll(async () => {
    await moduleRef
      .get(JobQueue)
      .queue('embeddings')
      .obliterate({ force: true })
      .catch(() => undefined);
    await moduleRef.close();
    await database.drop();
  });

  it("records a contradiction with another author's memory once: relation and review, a repeat adding neither", async () => {
    const { memory: old } = await store(agentA(), fields('The billing API listens on port 8080'));
    const agentB = principal('agent-b');
    const young = await store(agentB, fields('The billing API listens on port 9090'), 'billing-port');
    expect(young.warnings).toEqual([expect.objectContaining({ memoryId: old.id, strength: 'strong', recorded: true })]);
    expect(young.embedding).toBe('queued');
    expect(await contradictsFrom(young.memory.id)).toBe(1);
    expect(await reviewsOf(young.memory.id)).toBe(1);

    const repeat = await store(agentB, fields('The billing API listens on port 9090'), 'billing-port');
    expect(repeat).toMatchObject({ replayed: true, warnings: [], embedding: 'unchanged' });
    expect(repeat.memory.id).toBe(young.memory.id);
    expect(await contradictsFrom(young.memory.id)).toBe(1);
    expect(await reviewsOf(young.memory.id)).toBe(1);
  });

  it('leaves nothing of a store its decision refuses, though its contradiction search found one', async () => {
    const agentB = principal('agent-b');
    await store(agentA(), fields('The report job runs at 02:00 UTC'));
    const before = {
      memories: await count(`SELECT count(*)::int AS n FROM $schema.memories`, []),
      relations: await count(`SELECT count(*)::int AS n FROM $schema.memory_relations`, []),
      reviews: await count(`SELECT count(*)::int AS n FROM $schema.memory_reviews`, []),
      keys: await count(`SELECT count(*)::int AS n FROM $schema.memory_idempotency_keys`, []),
    };
    const refused = store(
      agentB,
      fields('The report job runs at 04:00 UTC', { supersedes: [randomUUID()] }),
      'report-time',
    );
    await expect(refused).rejects.toMatchObject({ code: 'unknown_memory', status: 400 });
    expect({
      memories: await count(`SELECT count(*)::int AS n FROM $schema.memories`, []),
      relations: await count(`SELECT count(*)::int AS n FROM $schema.memory_relations`, []),
      reviews: await count(`SELECT count(*)::int AS n FROM $schema.memory_reviews`, []),
      keys: await count(`SELECT count(*)::int AS n FROM $schema.memory_idempotency_keys`, []),
    }).toEqual(before);
    // The same store without the bad supersedes: the contradiction was there to find, and the
    // key is free (had the refused store kept it, this other payload would be a 409).
    const accepted = await store(agentB, fields('The report job runs at 04:00 UTC'), 'report-time');
    expect(accepted.warnings).toEqual([expect.objectContaining({ strength: 'strong', recorded: true })]);
    expect(await reviewsOf(accepted.memory.id)).toBe(1);
  });

  it('does not report what the store supersedes as contradicting it, and still reports the others', async () => {
    const { memory: first } = await store(agentA(), fields('The queue worker polls every 5 seconds'));
    const { memory: second } = await store(agentA(), fields('The queue worker polls every 10 seconds'));
    const third = await store(agentA(), fields('The queue worker polls every 30 seconds', { supersedes: [second.id] }));
    const contradicted = third.warnings.map((warning) => warning.memoryId);
    expect(contradicted).toContain(first.id);
    expect(contradicted).not.toContain(second.id);
    expect(await contradictsFrom(third.memory.id)).toBe(third.warnings.filter((w) => w.recorded).length);
    // One author's own contradictions stay warnings: nothing for a reviewer.
    expect(await reviewsOf(third.memory.id)).toBe(0);
  });
});
