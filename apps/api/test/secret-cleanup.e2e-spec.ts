import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { EmbeddingsModule, EmbeddingTargetsModule, EmbeddingWorkerModule } from '@cairn/embeddings';
import { JobHandlers, JobsModule } from '@cairn/jobs';
import { KnowledgeModule } from '@cairn/knowledge';
import { MaintenanceWorkerModule } from '@cairn/maintenance';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { TenancyModule } from '@cairn/tenancy';
import { createDbTestingModule, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pick = (alphabet: string, n: number) => [...randomBytes(n)].map((b) => alphabet[b % alphabet.length]).join('');
// A fresh value per case: the same value written elsewhere would share its placeholder id (and stay readable there).
const githubToken = () => `ghp_${pick(ALNUM, 36)}`;
const awsKey = () => `AKIA${pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
const PLACEHOLDER = /\[SECRET:([a-z0-9-]+):([A-Za-z0-9_-]+)\]/;
const CAP = 3;

/** A sealed original goes with the text that refers to it: in the same transaction, whatever removes it. */
describe('secrets do not outlive their source', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;
  const url = (suffix: string) => `/v1/projects/${w.project}${suffix}`;
  const idIn = (text: string) => PLACEHOLDER.exec(text)![2];
  const reveal = (id: string) => w.agent.get(url(`/secrets/${id}`));
  const rows = async (sourceTable: string, sourceId: string) => {
    const [row] = await api.app
      .get(DataSource)
      .query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM "${w.tenant.schema}".secrets WHERE source_table = $1 AND source_id = $2`,
        [sourceTable, sourceId],
      );
    return row.n;
  };
  /** Stored, readable, one row: the state every case starts from. */
  const expectKept = async (id: string, sourceTable: string, sourceId: string) => {
    expect((await reveal(id)).status).toBe(200);
    expect(await rows(sourceTable, sourceId)).toBeGreaterThan(0);
  };
  const expectGone = async (id: string, sourceTable: string, sourceId: string) => {
    expect((await reveal(id)).status).toBe(404);
    expect((await w.admin.get(url(`/secrets/${id}`))).status).toBe(404);
    expect(await rows(sourceTable, sourceId)).toBe(0);
  };

  beforeAll(async () => {
    api = await startApi({ WORKING_MEMORY_CAP: String(CAP) });
    w = await memoryWorld(api);
    worker = await createDbTestingModule(
      testConfig(api.database.url, testRedisUrl(), { QUEUE_PREFIX: `sec${randomBytes(4).toString('hex')}` }, 'worker'),
      [
        TenancyModule,
        ProjectsModule,
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
        MemoryModule,
        KnowledgeModule,
        EmbeddingWorkerModule,
        MaintenanceWorkerModule,
      ],
    );
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  it('deletes the originals of a memory, redacted or sensitive, when the memory is deleted', async () => {
    const redacted = (await store(w.agent, w.project, { content: `CI signs with ${awsKey()}` })).memory;
    const sealed = (await store(w.agent, w.project, { content: 'Sealed whole', sensitive: true })).memory;
    for (const memory of [redacted, sealed]) {
      const id = idIn(memory.content as string);
      await expectKept(id, 'memories', memory.id);
      expect((await w.agent.request('DELETE', memoriesUrl(w.project, `/${memory.id}`))).status).toBe(204);
      await expectGone(id, 'memories', memory.id);
    }
  });

  it('keeps the originals while the memory lives, through updates (its history still shows them)', async () => {
    const memory = (await store(w.agent, w.project, { content: `Old key ${awsKey()}` })).memory;
    const id = idIn(memory.content as string);
    await w.agent.patch(memoriesUrl(w.project, `/${memory.id}`), { content: 'Key moved to the vault' });
    await expectKept(id, 'memories', memory.id);
  });

  it('deletes the originals of a knowledge-base document deleted, replaced by a new version, or purged', async () => {
    const index = (source: string, text: string) => w.agent.post(url('/kb/documents'), { source, text });

    const deleted = await index('runbooks/ci.md', `# CI\nThe bot token is ${githubToken()}.`);
    const deletedDoc = deleted.body.document.id as string;
    const [chunk] = await api.app
      .get(DataSource)
      .query<{ content: string }[]>(`SELECT content FROM "${w.tenant.schema}".kb_chunks WHERE document_id = $1`, [
        deletedDoc,
      ]);
    const id = idIn(chunk.content);
    await expectKept(id, 'kb_documents', deletedDoc);
    expect((await w.agent.request('DELETE', url(`/kb/documents/${deletedDoc}`))).status).toBe(204);
    await expectGone(id, 'kb_documents', deletedDoc);

    const first = (await index('runbooks/aws.md', `Deploy with ${awsKey()}.`)).body.document.id as string;
    expect(await rows('kb_documents', first)).toBe(1);
    await index('runbooks/aws.md', 'Deploy with the role; no keys any more.');
    expect(await rows('kb_documents', first)).toBe(0);

    const expiring = (await index('notes/old.md', `Old token ${githubToken()}`)).body.document.id as string;
    expect(await rows('kb_documents', expiring)).toBe(1);
    await api.app.get(DataSource).query(
      `UPDATE "${w.tenant.schema}".kb_documents
         SET retained_from = now() - interval '400 days', expires_at = now() - interval '1 day' WHERE id = $1`,
      [expiring],
    );
    const purge = await worker
      .get(JobHandlers)
      .get('maintenance', 'retention-purge')!
      .handle({ tenantId: w.tenant.id } as never, {
        id: randomUUID(),
        attemptsMade: 0,
        queue: 'maintenance',
        name: 'retention-purge',
      });
    expect(purge.status).toBe('done');
    expect(await rows('kb_documents', expiring)).toBe(0);
  });

  it('deletes the originals of a working-memory entry forgotten or overwritten without them, moves them when evicted', async () => {
    const put = (key: string, value: string, importance = 3) =>
      w.agent.request('PUT', url(`/working-memory/${key}`), { value, importance });
    const forgotten = await put('deploy-token', `token ${githubToken()}`);
    const sourceId = (await rowsFor(forgotten.body.entry.value))!;
    await expectKept(idIn(forgotten.body.entry.value), 'working_memory', sourceId);
    expect((await w.agent.request('DELETE', url('/working-memory/deploy-token'))).status).toBe(204);
    await expectGone(idIn(forgotten.body.entry.value), 'working_memory', sourceId);

    const key = awsKey();
    const kept = await put('ci-key', `key ${key}`);
    const keptId = idIn(kept.body.entry.value);
    const keptSource = (await rowsFor(kept.body.entry.value))!;
    await put('ci-key', `still ${key}, now read-only`);
    await expectKept(keptId, 'working_memory', keptSource);
    await put('ci-key', 'moved to the vault');
    await expectGone(keptId, 'working_memory', keptSource);

    // Evicted entries become memories that carry their placeholders: the originals move with them.
    const evicted = await put('scratch', `scratch ${githubToken()}`, 1);
    const evictedId = idIn(evicted.body.entry.value);
    const evictedSource = (await rowsFor(evicted.body.entry.value))!;
    const pushed = [];
    for (let i = 0; i < CAP; i += 1) pushed.push(await put(`important-${i}`, `note ${i}`, 5));
    const moved = pushed.flatMap((response) => response.body.evicted).find((e: { key: string }) => e.key === 'scratch');
    expect(moved).toBeDefined();
    expect(await rows('working_memory', evictedSource)).toBe(0);
    await expectKept(evictedId, 'memories', moved.memoryId);
    const memory = await w.agent.get(memoriesUrl(w.project, `/${moved.memoryId}`));
    expect(idIn(memory.body.content)).toBe(evictedId);
    expect((await w.agent.request('DELETE', memoriesUrl(w.project, `/${moved.memoryId}`))).status).toBe(204);
    await expectGone(evictedId, 'memories', moved.memoryId);
  });

  /** The source id the working-memory write recorded for the placeholder in `value`. */
  async function rowsFor(value: string): Promise<string | undefined> {
    const [row] = await api.app
      .get(DataSource)
      .query<{ source_id: string }[]>(
        `SELECT source_id FROM "${w.tenant.schema}".secrets WHERE source_table = 'working_memory' AND placeholder_id = $1`,
        [idIn(value)],
      );
    return row?.source_id;
  }
});
