import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { type TestingModule } from '@nestjs/testing';
import { connectClient, toolOk, toolRefused } from '@cairn/gateway-harness';
import { startWorkerContext, testConfig, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { type CliWorld, type Home, makeHome, runCairn, startCliWorld, tenantWithToken } from './cli-harness';

const REPO_ROOT = resolve(__dirname, '../../..');
/** Indexing the whole repository (parse, secret scan, passages, summaries) takes a while on 2 cores. */
const INDEX_TIMEOUT_MS = 600_000;

/**
 * The context harness end to end (issue 25): the built `cairn index` uploads THIS repository to
 * a real api, a real worker summarises and embeds it, and an agent's MCP client then asks the
 * harness tools about code it knows is there: a symbol's definition and references, a search by
 * name and by words, a file's summary, the derived project card, context_check, and the topic
 * view. An unchanged second run uploads nothing.
 */
describe('cairn index on this repository, then the harness tools over MCP', () => {
  let world: CliWorld;
  let worker: TestingModule;
  let home: Home;
  let member: Awaited<ReturnType<typeof tenantWithToken>>;
  let project: string;
  let agent: Client;
  let first: any;

  beforeAll(async () => {
    world = await startCliWorld();
    worker = await startWorkerContext(
      WorkerModule.register(
        testConfig(world.database.url, testRedisUrl(), { QUEUE_PREFIX: world.config.queues.prefix }, 'worker'),
      ),
    );
    member = await tenantWithToken(world, {
      role: 'member',
      agentId: 'harness:agent',
      toolsets: ['core', 'harness', 'maintenance'],
    });
    project = member.projects[0];
    home = makeHome();
    const indexed = await runCairn(['index', REPO_ROOT, '--json'], {
      env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token },
      cwd: REPO_ROOT,
      timeoutMs: INDEX_TIMEOUT_MS,
    });
    first = indexed.json();
    agent = await connectClient(world.mcpUrl, member.token);
  }, INDEX_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await agent?.close();
    await worker?.close();
    await world?.close();
    home?.remove();
  });

  it('indexes every kept file of the repository once and skips what is ignored or vendored', () => {
    expect(first.uploaded).toBe(first.scanned);
    expect(first.scanned).toBeGreaterThan(500);
    expect(first.removed).toBe(0);
    expect(first.symbols).toBeGreaterThan(3_000);
    // node_modules/ and dist/ are gitignored here: never entered.
    expect(first.skipped.ignored).toBeGreaterThan(0);
    expect(first.run.files).toBe(first.scanned);
  });

  it('code_symbol: where CodeParser is defined and where it is used', async () => {
    const { data, text } = await toolOk(agent, 'code_symbol', { project, name: 'CodeParser' });
    expect(data.definitions[0]).toMatchObject({
      name: 'CodeParser',
      kind: 'class',
      path: 'libs/code-index/src/code-parser.service.ts',
      exported: true,
    });
    expect(data.definitions[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const users = data.references.map((ref: { path: string }) => ref.path);
    expect(users).toContain('libs/code-index/src/code-upload.service.ts');
    expect(text).toContain('code-parser.service.ts');
  });

  it('code_search: by exact and approximate name, and by words', async () => {
    const exact = await toolOk(agent, 'code_search', { project, query: 'splitIdentifier' });
    expect(exact.data.symbols[0]).toMatchObject({
      name: 'splitIdentifier',
      path: 'libs/code-index/src/code-chunker.ts',
    });
    const fuzzy = await toolOk(agent, 'code_search', { project, query: 'splitIdentifer', mode: 'keyword' });
    expect(fuzzy.data.symbols.map((hit: { name: string }) => hit.name)).toContain('splitIdentifier');
    const words = await toolOk(agent, 'code_search', {
      project,
      query: 'split identifier into words',
      mode: 'keyword',
    });
    const paths = words.data.passages.map((hit: { path: string }) => hit.path);
    expect(paths).toContain('libs/code-index/src/code-chunker.ts');
    expect(words.data.passages[0]).toEqual(
      expect.objectContaining({ startLine: expect.any(Number), endLine: expect.any(Number) }),
    );
  });

  it('file_summary: the worker summarised an indexed file from its content', async () => {
    const path = 'libs/code-index/src/code-chunker.ts';
    const deadline = Date.now() + 60_000;
    let summary: any;
    do {
      summary = (await toolOk(agent, 'file_summary', { project, path })).data.summary;
      if (summary.status !== 'pending') break;
      await new Promise((done) => setTimeout(done, 200));
    } while (Date.now() < deadline);
    expect(summary.status).toBe('ready');
    expect(summary.l0.length).toBeGreaterThan(0);
    expect(summary.l1).toContain('chunkCode');
  });

  it('project_card: derived from the index', async () => {
    const { data, text } = await toolOk(agent, 'project_card', { project });
    expect(data.version).toBeGreaterThanOrEqual(1);
    expect(data.content.stack.join(' ')).toMatch(/TypeScript \(\d+ files\)/);
    expect(data.content.stack).toContain('NestJS');
    expect(data.content.buildAndTest.map((entry: { command: string }) => entry.command)).toContain('npm test');
    expect(data.content.layout.map((entry: { path: string }) => entry.path)).toEqual(
      expect.arrayContaining(['apps/', 'libs/']),
    );
    expect(text).toContain('npm test');
  });

  it('context_check: evidence from the code with a confidence, and what to read when unsure', async () => {
    const { data } = await toolOk(agent, 'context_check', {
      project,
      question: 'how is the project card derived from the code index?',
    });
    expect(data.confidence).toBeGreaterThan(0);
    expect(data.confidence).toBeLessThanOrEqual(1);
    // The answer lives in the code index's derivation or in the card library that stores it.
    expect(data.evidence.map((item: { ref: string }) => item.ref).join(' ')).toMatch(
      /libs\/(code-index|project-card)\/src\//,
    );
    // Words made up at run time: nothing indexed holds them (not even this file, which is indexed too).
    const madeUp = Array.from({ length: 4 }, () => `q${randomBytes(4).toString('hex').replace(/\d/g, 'x')}`);
    const vague = await toolOk(agent, 'context_check', { project, question: madeUp.join(' ') });
    expect(vague.data.confidence).toBeLessThan(data.confidence);
    expect(vague.data.level).toBe('low');
    expect(vague.data.readNext.length).toBeGreaterThan(0);
  });

  it('memory_topics: topics of the memories agents stored about the code', async () => {
    await toolOk(agent, 'memory_store', {
      project,
      content: 'The code index parses with tree-sitter #parsing',
      tags: ['code-index'],
    });
    await toolOk(agent, 'memory_store', { project, content: 'Uploads are batched by size', tags: ['code-index'] });
    const { data } = await toolOk(agent, 'memory_topics', { project });
    const topics = Object.fromEntries(data.topics.map((row: { topic: string }) => [row.topic, row]));
    expect(topics['code-index'].memories).toBe(2);
    expect(topics.parsing.sources.hashtag).toBe(1);
  });

  it('refuses malformed questions and unknown symbols clearly', async () => {
    expect(await toolRefused(agent, 'code_symbol', { project, name: 'not an identifier' })).toMatch(/name/);
    expect(await toolRefused(agent, 'code_search', { project, query: '' })).toMatch(/query/);
    expect(await toolRefused(agent, 'context_check', { project, question: 'x'.repeat(5_000) })).toMatch(/question/);
    const missing = await toolOk(agent, 'code_symbol', { project, name: 'NoSuchSymbolAnywhere' });
    expect(missing.data.definitions).toEqual([]);
    expect(await toolRefused(agent, 'code_search', { project: member.projects[1], query: 'x' })).toMatch(
      /no code index/,
    );
  });

  it(
    're-running on the unchanged tree uploads and removes nothing',
    async () => {
      const again = await runCairn(['index', REPO_ROOT, '--json'], {
        env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token },
        cwd: REPO_ROOT,
        timeoutMs: INDEX_TIMEOUT_MS,
      });
      const summary = again.json();
      expect(summary.scanned).toBe(first.scanned);
      expect(summary.uploaded).toBe(0);
      expect(summary.removed).toBe(0);
      expect(summary.unchanged).toBe(first.scanned);
    },
    INDEX_TIMEOUT_MS,
  );
});
