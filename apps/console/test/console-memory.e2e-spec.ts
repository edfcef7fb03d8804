import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { DataSource } from 'typeorm';
import { createProject, createTenant, personWithPassword, signIn, TestClient } from '@cairn/testing';
import {
  buildConsole,
  type ConsoleServer,
  launchChromium,
  type PageProblems,
  screenshot,
  seriousAxeViolations,
  signInThroughPage,
  startConsoleServer,
  VIEWPORT,
  watchProblems,
} from './console-harness';

/**
 * The console's memory-side project pages (issue 23 §2 "Memory") in Debian's chromium against a
 * real api: a search result's ranking explained, a promotion proposed and approved from the
 * review queue, the coordination channel (post, acknowledge, chain verified), the knowledge
 * base (add, read chunks, search, delete) and the session timeline. People sign in through
 * the sign-in page; every page is checked with axe, for CSP violations, and at 1024 px wide.
 */
jest.setTimeout(120_000);

describe('the console: memory-side project pages', () => {
  let build: ReturnType<typeof buildConsole>;
  let server: ConsoleServer;
  let client: TestClient;
  let browser: Browser;
  let tenant: string;
  let schema: string;
  let project: string;
  let adminEmail: string;
  let readerEmail: string;
  let admin: Awaited<ReturnType<typeof signIn>>;
  let promotedId: string;
  let projectMemoryId: string;

  beforeAll(async () => {
    build = buildConsole();
    server = await startConsoleServer(build.dir);
    client = new TestClient(server.app);
    browser = await launchChromium();
    ({ slug: tenant, schema } = await createTenant(server.admin, 'globex'));
    project = (await createProject(server.admin, tenant, 'api-server')).slug;
    adminEmail = (await personWithPassword(server.admin, client, 'admin', tenant)).user.email;
    readerEmail = (await personWithPassword(server.admin, client, 'reader', tenant)).user.email;
    admin = await signIn(client, { tenant, email: adminEmail });
    const contents = [
      'The API server caches tenant schemas in Redis for five minutes; the cache key holds the schema version.',
      'Rate limits are per token and per tenant; Redis keeps the counters.',
      'Release notes live in docs/releases and every repository ships them.',
    ];
    const ids: string[] = [];
    for (const content of contents) {
      const stored = await admin.post(`/v1/projects/${project}/memories`, { content, category: 'fact' });
      expect(stored.status).toBe(201);
      ids.push(stored.body.memory.id);
    }
    promotedId = ids[2];
    projectMemoryId = ids[0];
    // What a Claude Code session reports through the hooks (docs/hooks.md): the session id in details.
    for (const event of [
      { kind: 'session_start', summary: 'Claude Code session started in api-server' },
      { kind: 'file_written', summary: 'Wrote src/cache.ts', details: { path: 'src/cache.ts', tool: 'Write' } },
      { kind: 'decision', summary: 'Plan approved: cache tenant schemas in Redis' },
    ]) {
      const recorded = await admin.post(`/v1/projects/${project}/events`, {
        ...event,
        details: { ...(event.details ?? {}), session: 'sess-7f3a9c21-demo' },
      });
      expect(recorded.status).toBe(201);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    build?.remove();
  });

  async function openSignedIn(
    path: string,
    email = adminEmail,
  ): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    await page.goto(`${server.origin}/console/sign-in`);
    await signInThroughPage(page, { tenant, email });
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems };
  }

  /** axe (no serious or critical violation), no CSP violation or script error, and usable 1024 px wide. */
  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
    await page.setViewportSize({ width: 1024, height: VIEWPORT.height });
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize(VIEWPORT);
  }

  /** Scrolls the element with `id` to the top, so a screenshot shows what the test is about. */
  const scrollTo = (page: Page, id: string) =>
    page.evaluate(`document.getElementById(${JSON.stringify(id)}).scrollIntoView({ block: 'start' })`);

  it("explains a search result's ranking, signal by signal, behind a toggle", async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}`);
    await page.getByRole('heading', { name: `Memories of ${project}` }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('tenant schemas cache');
    await page.getByRole('radio', { name: 'Keyword' }).check({ force: true });
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('link', { name: /caches tenant schemas in Redis/ }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);

    // By keyboard, as the toggle is meant to be used without a mouse too.
    await page.getByRole('switch', { name: /Explain ranking/ }).focus();
    await page.keyboard.press('Space');
    const table = page.getByRole('table', { name: 'Why result 1 ranked here' });
    await table.waitFor();
    const keyword = table.getByRole('row', { name: /^Keyword/ });
    const cells = await keyword.getByRole('cell').allInnerTexts();
    expect(cells[0]).toMatch(/^\d+$/); // rank
    expect(cells[1]).toMatch(/^\d+\.\d+$/); // the ranker's own score
    expect(cells[2]).toMatch(/^\+ \d+\.\d+/); // what it added to the fused score
    await table.getByRole('row', { name: /^Final .*= \d+\.\d+/ }).waitFor();
    await scrollTo(page, 'results-heading');
    await screenshot(page, 'explain');
    await expectAccessible(page, problems);
    await context.close();
  });

  it('proposes a promotion on a memory, then approves it with a reason from the review queue', async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}/memories/${promotedId}`);
    await page.getByRole('heading', { name: 'Propose a wider scope' }).waitFor();
    await page.getByLabel('Widen to').selectOption('team');
    await page.getByLabel('Note for the reviewer').fill('Every repository ships release notes the same way.');
    await page.getByRole('button', { name: 'Propose promotion' }).click();
    await page.getByRole('status').filter({ hasText: 'Promotion to team proposed' }).waitFor();
    await expectAccessible(page, problems);

    await page.getByRole('link', { name: 'review queue' }).click();
    await page.getByRole('heading', { name: `Review queue of ${project}` }).waitFor();
    const review = page.getByRole('article').filter({ hasText: 'Release notes live in docs/releases' });
    await review.getByRole('heading', { name: 'Promotion from project to team' }).waitFor();
    await review.getByText('Every repository ships release notes the same way.').waitFor();
    // No reason, no decision: the field says why.
    await review.getByRole('button', { name: 'Approve promotion' }).click();
    await review.getByText('Give a reason: the author reads it in their next briefing.').waitFor();
    await scrollTo(page, 'reviews-heading');
    await screenshot(page, 'reviews');
    await expectAccessible(page, problems);
    await review.getByLabel('Reason').fill('Applies to every project of the team.');
    await review.getByRole('button', { name: 'Approve promotion' }).click();
    await page.getByRole('status').filter({ hasText: 'Promotion approved: the memory is now team.' }).waitFor();

    const approved = await admin.get(`/v1/projects/${project}/reviews?status=approved`);
    expect(approved.body.items).toContainEqual(
      expect.objectContaining({
        memoryId: promotedId,
        status: 'approved',
        toScope: 'team',
        decisionReason: 'Applies to every project of the team.',
      }),
    );
    expect((await admin.get(`/v1/projects/${project}/memories/${promotedId}`)).body.scope).toBe('team');
    await page.getByRole('radio', { name: 'Approved' }).check({ force: true });
    await page.getByText(/approved by .*: Applies to every project of the team\./).waitFor();
    await context.close();
  });

  it('posts on the coordination channel, acknowledges the message and shows the chain verified', async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}/coordination`);
    await page.getByRole('heading', { name: `Coordination channel of ${project}` }).waitFor();
    await page.getByText('✓ Chain verified: the channel is empty.').waitFor();
    await page.getByLabel('Type').selectOption('ASSIGN');
    await page.getByLabel('Summary').fill('Move the schema cache behind the tenancy module.');
    await page.getByLabel('Files').fill('libs/tenancy/src/schema-cache.ts');
    await page.getByLabel('Assignee').fill('claude-code:bob');
    await page.getByRole('button', { name: 'Post message' }).click();
    await page.getByRole('status').filter({ hasText: 'Message #1 posted.' }).waitFor();
    const message = page.getByRole('article').filter({ hasText: 'Move the schema cache' });
    await message.getByText('not acknowledged by you').waitFor();
    await message.getByRole('button', { name: 'Acknowledge #1' }).click();
    await message.getByText('acknowledged by you', { exact: true }).waitFor();
    await page.getByText('✓ Chain verified: its one message is intact.').waitFor();
    await scrollTo(page, 'main');
    await screenshot(page, 'coordination');
    await expectAccessible(page, problems);

    const read = await admin.get(`/v1/projects/${project}/broadcasts`);
    expect(read.body.items).toEqual([
      expect.objectContaining({ seq: 1, type: 'ASSIGN', assignee: 'claude-code:bob', acknowledged: true }),
    ]);
    expect((await admin.get(`/v1/projects/${project}/broadcasts/verify`)).body).toMatchObject({
      valid: true,
      entries: 1,
    });
    await context.close();
  });

  it('names the message where a tampered chain breaks', async () => {
    const other = (await createProject(server.admin, tenant, 'tampered')).slug;
    for (const summary of ['step 1', 'step 2', 'step 3']) {
      expect((await admin.post(`/v1/projects/${other}/broadcasts`, { type: 'STATUS', summary })).status).toBe(201);
    }
    // Behind the API's back, as an intruder with database access would (the table refuses it otherwise).
    const sql = (query: string, params: unknown[] = []) => server.app.get(DataSource).query(query, params);
    const table = `"${schema}".broadcasts`;
    await sql(`ALTER TABLE ${table} DISABLE TRIGGER broadcasts_append_only`);
    try {
      await sql(
        `UPDATE ${table} SET summary = 'step 2, rewritten' WHERE seq = 2
           AND project_id = (SELECT id FROM "${schema}".projects WHERE slug = $1)`,
        [other],
      );
    } finally {
      await sql(`ALTER TABLE ${table} ENABLE TRIGGER broadcasts_append_only`);
    }
    const { page, context, problems } = await openSignedIn(`/projects/${other}/coordination`);
    await page.getByText(/✗ Chain broken at message #2: .*altered.*1 message before it verified\./).waitFor();
    await expectAccessible(page, problems);
    await context.close();
  });

  it('adds a knowledge-base document, reads its chunks, finds a chunk, and deletes a document', async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}/knowledge`);
    await page.getByRole('heading', { name: `Knowledge base of ${project}` }).waitFor();
    await page.getByLabel('Source', { exact: true }).fill('docs/runbooks/cache.md');
    await page.getByLabel('Title').fill('Schema cache runbook');
    await page
      .getByLabel('Text', { exact: true })
      .fill(
        'When tenants see stale schemas, flush the quokkaflush key family in Redis. ' +
          'The cache refills on the next request; nothing else needs a restart.',
      );
    await page.getByRole('button', { name: 'Add document' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Schema cache runbook indexed in 1 chunk;/ })
      .waitFor();
    const row = page.getByRole('row', { name: /Schema cache runbook/ });
    await row.waitFor();

    await row.getByRole('button', { name: 'Chunks of Schema cache runbook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Chunks of Schema cache runbook' });
    await dialog.getByText(/flush the quokkaflush key family/).waitFor();
    await expectAccessible(page, problems);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('searchbox', { name: 'Search chunks' }).fill('quokkaflush');
    await page.getByRole('radio', { name: 'Keyword' }).check({ force: true });
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.getByRole('heading', { name: 'Chunks matching “quokkaflush”' }).waitFor();
    const hit = page.getByRole('listitem').filter({ hasText: 'Schema cache runbook, chunk 1' });
    await hit.getByText(/flush the quokkaflush key family in Redis/).waitFor();
    await scrollTo(page, 'documents-heading');
    await screenshot(page, 'knowledge');
    await expectAccessible(page, problems);

    const doomed = await admin.post(`/v1/projects/${project}/kb/documents`, {
      source: 'tmp/scratch.md',
      text: 'Scratch.',
    });
    expect(doomed.status).toBe(201);
    await page.reload();
    await page.getByRole('button', { name: 'Delete tmp/scratch.md' }).click();
    await page
      .getByRole('dialog', { name: 'Delete tmp/scratch.md?' })
      .getByRole('button', { name: 'Delete document' })
      .click();
    await page.getByRole('status').filter({ hasText: 'tmp/scratch.md deleted.' }).waitFor();
    const listed = await admin.get(`/v1/projects/${project}/kb/documents`);
    expect(listed.body.items.map((document: { source: string }) => document.source)).toEqual([
      'docs/runbooks/cache.md',
    ]);
    await context.close();
  });

  it('shows the session events as a timeline grouped by session', async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}/timeline`);
    const session = page.getByRole('region', { name: /^Session sess-7f3a9c21/ });
    await session.waitFor();
    await session.getByText('Plan approved: cache tenant schemas in Redis').waitFor();
    await session.getByText('Wrote src/cache.ts').waitFor();
    await session.getByText('3 events', { exact: false }).waitFor();
    await session.getByText('Details').first().click();
    await session.getByText(/"path": "src\/cache.ts"/).waitFor();
    await screenshot(page, 'timeline');
    await expectAccessible(page, problems);
    await page.getByLabel('Kind').selectOption('decision');
    await page.getByText('1 event,', { exact: false }).waitFor();
    expect(await page.getByText('Wrote src/cache.ts').count()).toBe(0);
    await context.close();
  });

  it('pages back through a long timeline with "Show more"', async () => {
    const busy = (await createProject(server.admin, tenant, 'busy')).slug;
    for (let i = 1; i <= 55; i += 1) {
      const recorded = await admin.post(`/v1/projects/${busy}/events`, { kind: 'custom', summary: `busy event ${i}` });
      expect(recorded.status).toBe(201);
    }
    const { page, context } = await openSignedIn(`/projects/${busy}/timeline`);
    const events = page.locator('li.timeline-event');
    await page.getByText('busy event 55', { exact: true }).waitFor();
    expect(await events.count()).toBe(50);
    await page.getByRole('button', { name: 'Show more events' }).click();
    await page.getByText('busy event 1', { exact: true }).waitFor();
    expect(await events.count()).toBe(55);
    expect(await page.getByRole('button', { name: 'Show more events' }).count()).toBe(0);
    await context.close();
  });

  it("offers a reader only what the reader's permissions allow", async () => {
    const { page, context, problems } = await openSignedIn(`/projects/${project}/coordination`, readerEmail);
    await page.getByRole('heading', { name: `Coordination channel of ${project}` }).waitFor();
    const sections = page.getByRole('navigation', { name: `Project ${project}` });
    await sections.getByRole('link', { name: 'Knowledge base' }).waitFor();
    expect(await sections.getByRole('link', { name: 'Review queue' }).count()).toBe(0);
    await page.getByRole('article').filter({ hasText: 'Move the schema cache' }).waitFor();
    expect(await page.getByRole('button', { name: 'Post message' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
    await expectAccessible(page, problems);

    await sections.getByRole('link', { name: 'Knowledge base' }).click();
    await page.getByRole('row', { name: /Schema cache runbook/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Add document' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);

    await page.goto(`${server.origin}/console/projects/${project}/reviews`);
    await page.getByText('Only orchestrators and admins see and decide the review queue.').waitFor();
    // A project memory an agent could propose for the team: a reader cannot.
    await page.goto(`${server.origin}/console/projects/${project}/memories/${projectMemoryId}`);
    await page.getByRole('heading', { name: 'Versions' }).waitFor();
    expect(await page.getByRole('button', { name: 'Propose promotion' }).count()).toBe(0);
    await expectAccessible(page, problems);
    await context.close();
  });
});
