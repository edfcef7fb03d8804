import { randomUUID } from 'node:crypto';
import { JobQueue } from '@cairn/jobs';
import {
  createProject,
  createTenant,
  issueToken,
  PASSWORD,
  personWithPassword,
  signIn,
  TestClient,
  testRedisUrl,
  totpCode,
} from '@cairn/testing';
import { UnrecoverableError, Worker } from 'bullmq';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
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
 * The console's operations, audit, settings, users and account pages in Debian's chromium against
 * a real api (see console.e2e-spec.ts for the set-up). Jobs fail for real (a BullMQ worker that
 * refuses them), and every change is checked through the API afterwards. Every page is checked
 * with axe and for CSP violations.
 */
jest.setTimeout(120_000);

/** The narrowest width the console is laid out for (docs/console.md). */
const NARROW = { width: 1024, height: 720 };

describe('the console: operations, audit, settings and account', () => {
  let build: ReturnType<typeof buildConsole>;
  let server: ConsoleServer;
  let client: TestClient;
  let browser: Browser;
  let tenant: { id: string; slug: string };
  let adminEmail: string;
  const operatorEmail = 'ops-operations@example.com';

  beforeAll(async () => {
    build = buildConsole();
    server = await startConsoleServer(build.dir);
    client = new TestClient(server.app);
    browser = await launchChromium();
    tenant = await createTenant(server.admin, 'ops-co');
    await createProject(server.admin, tenant.slug, 'web-app');
    adminEmail = (await personWithPassword(server.admin, client, 'admin', tenant.slug)).user.email;
    const operator = await server.admin.post('/v1/platform/accounts', {
      email: operatorEmail,
      name: 'Ops',
      password: PASSWORD,
    });
    expect(operator.status).toBe(201);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    build?.remove();
  });

  /** Embedding jobs of `tenantId` that fail for good, for real: a worker that refuses them, stopped after. */
  async function failJobs(tenantId: string, ids: readonly string[], reason: string): Promise<void> {
    const jobs = server.app.get(JobQueue);
    const queue = jobs.queue('embeddings');
    // Jobs retried by an earlier test wait in the queue; this worker would fail them again.
    await queue.drain();
    const failer = new Worker('embeddings', () => Promise.reject(new UnrecoverableError(`${reason}\n    at stack`)), {
      connection: { url: testRedisUrl() } as never,
      prefix: server.config.queues.prefix,
    });
    try {
      for (const jobId of ids) {
        await jobs.enqueue(
          'embeddings',
          'embed',
          { tenantId, target: 'memory', ids: [randomUUID()], origin: 'interactive' },
          { jobId },
        );
      }
      for (let i = 0; i < 400; i += 1) {
        const states = await Promise.all(ids.map(async (id) => (await queue.getJob(id))?.isFailed()));
        if (states.every(Boolean)) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error(`jobs ${ids.join(', ')} did not fail`);
    } finally {
      await failer.close();
    }
  }

  async function open(
    path: string,
    who: { tenant?: string; email: string },
    viewport = VIEWPORT,
  ): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
    const context = await browser.newContext({ viewport, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    await page.goto(`${server.origin}/console/sign-in`);
    await signInThroughPage(page, who);
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems };
  }
  const asAdmin = (path: string, viewport?: typeof VIEWPORT) =>
    open(path, { tenant: tenant.slug, email: adminEmail }, viewport);
  const asOperator = (path: string) => open(path, { email: operatorEmail });

  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  }

  /**
   * Waits until `expression` (browser code as text) is true. Polled with page.evaluate, which runs
   * outside the page's CSP; waitForFunction re-evaluates inside it, and the CSP forbids eval.
   */
  async function until(page: Page, expression: string): Promise<void> {
    for (let i = 0; i < 200; i += 1) {
      if (await page.evaluate(expression)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`never true: ${expression}`);
  }

  /** Laid out within the window: nothing wider than the viewport makes the page scroll sideways. */
  async function expectNoSidewaysScroll(page: Page, width: number): Promise<void> {
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
  }

  describe('as a tenant admin', () => {
    it('shows a failed job with its error, retries it (it leaves the list) and removes another', async () => {
      const retried = `console-retry-${tenant.id}`;
      const removed = `console-remove-${tenant.id}`;
      await failJobs(tenant.id, [retried, removed], 'embedding provider said no');
      const { page, context, problems } = await asAdmin('/operations');
      await page.getByRole('heading', { name: 'Operations', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Service health' }).waitFor();
      await page
        .getByText(/embedded|every item carries/)
        .first()
        .waitFor();
      await page.getByRole('cell', { name: 'database', exact: true }).waitFor();
      const row = page.getByRole('row').filter({ hasText: retried });
      await row.getByRole('cell', { name: 'embedding provider said no' }).waitFor();
      expect(await page.getByText('at stack').count()).toBe(0);
      await screenshot(page, 'operations');
      await expectAccessible(page, problems);

      await page.getByRole('button', { name: `Retry job ${retried}` }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Job ${retried} queued again.` })
        .waitFor();
      await row.waitFor({ state: 'detached' });
      const queue = server.app.get(JobQueue).queue('embeddings');
      expect(await (await queue.getJob(retried))!.isWaiting()).toBe(true);
      const failed = await server.admin.get(`/v1/tenants/${tenant.slug}/jobs/failed`);
      expect(failed.body.items.map((job: { id: string }) => job.id)).toEqual([removed]);

      await page.getByRole('button', { name: `Remove job ${removed}` }).click();
      const dialog = page.getByRole('dialog', { name: `Remove job ${removed}?` });
      await expectAccessible(page, problems);
      await dialog.getByRole('button', { name: 'Remove job' }).click();
      await page.getByRole('cell', { name: 'No failed jobs.' }).waitFor();
      expect(await queue.getJob(removed)).toBeUndefined();
      await page.setViewportSize(NARROW);
      await expectNoSidewaysScroll(page, NARROW.width);
      await context.close();
    });

    it('changes settings and retention, confirming a shorter retention, and the API has them', async () => {
      const settingsUrl = `/v1/tenants/${tenant.slug}/settings`;
      const { page, context, problems } = await asAdmin('/settings');
      await page.getByRole('heading', { name: 'Tenant settings' }).waitFor();
      expect(await page.getByRole('radio', { name: /^Proposals/ }).isChecked()).toBe(true);
      await page.getByRole('radio', { name: /^Memories: stored at once/ }).check({ force: true });
      await page.getByRole('radio', { name: /^Private/ }).check({ force: true });
      await page.getByLabel('Hosts kb_fetch never reaches').fill('internal.example.com\n*.corp.example.com');

      // Retention: empty fields follow the installation's days, which the page names.
      const audit = page.getByLabel('Audit log (days)');
      expect(await audit.inputValue()).toBe('');
      await page.getByText("Entries of the audit log. Now: 365 days. Empty: the installation's 365 days.").waitFor();
      // A value the API would refuse is shown as the field's error, and nothing is sent.
      await audit.fill('10');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Must be 0 (keep forever) or 30 to 36,500 days.').waitFor();
      await page.getByRole('alert').filter({ hasText: 'Some retention values cannot be saved' }).waitFor();
      expect(await audit.getAttribute('aria-invalid')).toBe('true');
      await expectAccessible(page, problems);
      expect((await server.admin.get(settingsUrl)).body.extractionMode).toBe('proposals');

      await audit.fill('90');
      await page.getByLabel('External documents (days)').fill('7');
      await page.getByLabel('Internal documents (days)').fill('60');
      expect(await page.getByRole('alert').count()).toBe(0);
      await screenshot(page, 'settings');
      await expectAccessible(page, problems);
      await page.getByRole('button', { name: 'Save settings' }).click();
      // Shorter periods delete data: they are named and confirmed first (the longer one is not).
      const dialog = page.getByRole('dialog', { name: 'Shorten retention?' });
      await dialog.getByText('Audit log: 365 days → 90 days').waitFor();
      await dialog.getByText('External documents: 14 days → 7 days').waitFor();
      expect(await dialog.getByText(/Internal documents/).count()).toBe(0);
      await expectAccessible(page, problems);
      await dialog.getByRole('button', { name: 'Shorten and save' }).click();
      await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
      await page.getByText('Entries of the audit log. Now: 90 days.', { exact: false }).waitFor();
      const saved = await server.admin.get(settingsUrl);
      expect(saved.body).toMatchObject({
        extractionMode: 'memories',
        agentDefaultScope: 'private',
        secrets: 'redact',
        fetchDenyHosts: ['internal.example.com', '*.corp.example.com'],
        retention: {
          auditLogDays: { effective: 90, tenant: 90, default: 365 },
          knowledgeBaseDays: {
            external: { effective: 7, tenant: 7, default: 14 },
            internal: { effective: 60, tenant: 60, default: 30 },
            summary: { effective: 365, tenant: null, default: 365 },
          },
        },
      });

      // Emptied, a field goes back to the installation's days (longer here: no confirmation).
      await page.getByLabel('External documents (days)').fill('');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page
        .getByText('Fetched pages and other outside sources, counted from when they were last indexed. Now: 14 days.', {
          exact: false,
        })
        .waitFor();
      expect(await page.getByRole('dialog').count()).toBe(0);
      expect((await server.admin.get(settingsUrl)).body.retention.knowledgeBaseDays.external).toEqual({
        effective: 14,
        tenant: null,
        default: 14,
      });
      // No tenant role may rotate the data key: the section is not there.
      expect(await page.getByRole('heading', { name: 'Data key' }).count()).toBe(0);
      await page.setViewportSize(NARROW);
      await expectNoSidewaysScroll(page, NARROW.width);
      await context.close();
    });

    it('verifies the audit chain and filters the log, at 1024 px wide too', async () => {
      const { page, context, problems } = await asAdmin('/audit', NARROW);
      await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Verify the audit chain' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Verified: the chain of \d+ entries is intact/ })
        .waitFor();
      await page.getByLabel('Action').fill('tenant.settings.update');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('cell', { name: 'tenant.settings.update' }).first().waitFor();
      await until(
        page,
        "[...document.querySelectorAll('tbody tr')].every((row) => row.textContent.includes('tenant.settings.update'))",
      );
      await expectNoSidewaysScroll(page, NARROW.width);
      await expectAccessible(page, problems);
      await page.setViewportSize(VIEWPORT);
      await page.getByRole('button', { name: 'Clear' }).click();
      await page.getByRole('cell', { name: 'job.retry' }).first().waitFor();
      await page.evaluate('window.scrollTo(0, 0)');
      await screenshot(page, 'audit');
      await context.close();
    });

    it('adds a user, changes the role, disables and enables, and issues a password link', async () => {
      const { page, context, problems } = await asAdmin('/users');
      await page.getByRole('heading', { name: 'Add a user' }).waitFor();
      await page.getByLabel('Email').fill('newcomer@example.com');
      await page.getByLabel('Name').fill('Newcomer');
      await page.getByRole('button', { name: 'Add user' }).click();
      const row = page.getByRole('row').filter({ hasText: 'newcomer@example.com' });
      await row.getByRole('cell', { name: 'member' }).waitFor();
      await expectAccessible(page, problems);

      await row.getByRole('button', { name: 'Change role' }).click();
      const dialog = page.getByRole('dialog', { name: 'Role of newcomer@example.com' });
      await dialog.getByLabel('Role').selectOption('reader');
      await dialog.getByRole('button', { name: 'Save role' }).click();
      await row.getByRole('cell', { name: 'reader' }).waitFor();
      await row.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Disable user' }).click();
      await row.getByRole('cell', { name: 'disabled' }).waitFor();
      const users = await server.admin.get(`/v1/tenants/${tenant.slug}/users`);
      const user = users.body.items.find((u: { email: string }) => u.email === 'newcomer@example.com');
      expect(user).toMatchObject({ role: 'reader', disabled: true });
      await row.getByRole('button', { name: 'Enable' }).click();
      await row.getByRole('cell', { name: 'active' }).waitFor();

      await row.getByRole('button', { name: 'Password link' }).click();
      const link = await page.getByLabel('Link', { exact: true }).inputValue();
      expect(link).toMatch(new RegExp(`^${server.origin}/console/reset-password#token=`));
      await expectAccessible(page, problems);
      await page.setViewportSize(NARROW);
      await expectNoSidewaysScroll(page, NARROW.width);
      await page.getByRole('button', { name: 'Done' }).click();
      // The link works once: the person sets a password with it and signs in.
      const reset = await context.newPage();
      await reset.goto(link);
      await reset.getByLabel('New password').fill(PASSWORD);
      await reset.getByLabel('Repeat the password').fill(PASSWORD);
      await reset.getByRole('button', { name: 'Set password' }).click();
      await reset.getByText('Your password is set.').waitFor();
      await expect(signIn(client, { tenant: tenant.slug, email: 'newcomer@example.com' })).resolves.toBeDefined();
      await context.close();
    });
  });

  describe('as any signed-in person', () => {
    it('enrols a second factor and ends another session; admin pages stay hidden from a member', async () => {
      const { user } = await personWithPassword(server.admin, client, 'member', tenant.slug);
      const elsewhere = await signIn(client, { tenant: tenant.slug, email: user.email });
      expect((await elsewhere.get('/v1/session')).status).toBe(200);

      const { page, context, problems } = await open('/account', { tenant: tenant.slug, email: user.email });
      await page.getByRole('heading', { name: 'Your account' }).waitFor();
      for (const hidden of ['Operations', 'Audit log', 'Settings', 'Users']) {
        expect(await page.getByRole('navigation').getByRole('link', { name: hidden }).count()).toBe(0);
      }
      await page.getByRole('button', { name: 'Set up a second factor' }).click();
      await page.getByRole('img', { name: 'QR code of the otpauth URL' }).waitFor();
      const secret = (await page.locator('.totp-enrolment dd code').first().textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]+=*$/);
      await page.getByText(/^otpauth:\/\/totp\/Cairn:/).waitFor();
      await screenshot(page, 'account');
      await expectAccessible(page, problems);
      await page.getByLabel('Code from the app').fill(totpCode(secret));
      await page.getByRole('button', { name: 'Confirm and turn on' }).click();
      await page.getByRole('status').filter({ hasText: 'Second factor on' }).waitFor();
      await page.getByRole('button', { name: 'Turn off the second factor' }).waitFor();
      const noCode = await client.post('/v1/session/login', {
        tenant: tenant.slug,
        email: user.email,
        password: PASSWORD,
      });
      expect(noCode.body.error.code).toBe('totp_required');

      const other = page
        .getByRole('row')
        .filter({ hasNotText: 'this session' })
        .getByRole('button', { name: /End session/ });
      await page.getByRole('cell', { name: /this session/ }).waitFor();
      await other.click();
      await page.getByRole('status').filter({ hasText: 'Session ended.' }).waitFor();
      // The sessions table only: the account page has Connected applications below it.
      await until(page, 'document.querySelectorAll(\'[aria-labelledby="sessions-heading"] tbody tr\').length === 1');
      expect((await elsewhere.get('/v1/session')).status).toBe(401);
      await expectAccessible(page, problems);
      await page.setViewportSize(NARROW);
      await expectNoSidewaysScroll(page, NARROW.width);
      await context.close();
    });
  });

  describe('as a platform operator', () => {
    it("sees every queue and every tenant's failed jobs, and retries them all", async () => {
      const jobId = `console-platform-${tenant.id}`;
      await failJobs(tenant.id, [jobId], 'model not found');
      const { page, context, problems } = await asOperator('/operations');
      await page.getByRole('heading', { name: 'Queues' }).waitFor();
      await page.getByRole('rowheader', { name: 'embeddings' }).waitFor();
      const row = page.getByRole('row').filter({ hasText: jobId });
      await row.getByRole('cell', { name: 'ops-co' }).waitFor();
      await row.getByRole('cell', { name: 'model not found' }).waitFor();
      await expectAccessible(page, problems);
      await page.setViewportSize(NARROW);
      await expectNoSidewaysScroll(page, NARROW.width);
      await page.getByRole('button', { name: 'Retry all failed jobs' }).click();
      await page.getByRole('status').filter({ hasText: 'Retried 1 failed job.' }).waitFor();
      await page.getByRole('cell', { name: 'No failed jobs.' }).waitFor();
      expect((await server.admin.get('/v1/admin/jobs/failed')).body.items).toEqual([]);
      await context.close();
    });

    it("rotates a tenant's data key after confirmation and reads the platform audit log", async () => {
      const { page, context, problems } = await asOperator('/tenants');
      await page.getByRole('link', { name: 'Tenant ops-co' }).click();
      await page.getByRole('heading', { name: 'Data key' }).waitFor();
      await page.getByRole('button', { name: 'Rotate data key' }).click();
      await expectAccessible(page, problems);
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate now' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Rotated from version \d+ to \d+/ })
        .waitFor();
      const key = await server.admin.get(`/v1/tenants/${tenant.slug}/data-key`);
      expect(key.body.currentVersion).toBeGreaterThanOrEqual(2);
      await expectAccessible(page, problems);

      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { name: 'Platform audit log' }).waitFor();
      await page.getByLabel('Action').fill('tenant.create');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.getByRole('cell', { name: 'tenant.create' }).first().waitFor();
      await expectAccessible(page, problems);
      await context.close();
    });

    it('suspends and resumes a tenant (its tokens refused meanwhile), then deletes it and shows the purge report', async () => {
      const doomed = await createTenant(server.admin, 'doomed-ops');
      await createProject(server.admin, doomed.slug, 'gone');
      const agent = client.as((await issueToken(server.admin, doomed.slug, { role: 'admin' })).token);
      const { page, context, problems } = await asOperator('/tenants');
      const row = page.getByRole('row').filter({ hasText: 'doomed-ops' });
      await page.getByRole('button', { name: 'Suspend doomed-ops' }).click();
      await expectAccessible(page, problems);
      await page.getByRole('dialog').getByRole('button', { name: 'Suspend tenant' }).click();
      await row.getByRole('cell', { name: /^suspended since/ }).waitFor();
      const refused = await agent.get('/v1/whoami');
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({
        status: 403,
        code: 'tenant_suspended',
      });
      await page.getByRole('button', { name: 'Resume doomed-ops' }).click();
      await row.getByRole('cell', { name: 'active', exact: true }).waitFor();
      expect((await agent.get('/v1/whoami')).status).toBe(200);

      await page.getByRole('button', { name: 'Delete doomed-ops' }).click();
      await page.getByRole('dialog').getByLabel('Type doomed-ops to confirm').fill('doomed-ops');
      await page.getByRole('dialog').getByRole('button', { name: 'Delete tenant' }).click();
      const report = page.getByRole('status').filter({ hasText: 'Tenant doomed-ops deleted' });
      await report.getByText(/dropped with \d+ rows in \d+ tables; 1 tokens revoked/).waitFor();
      await report.getByRole('cell', { name: 'projects' }).waitFor();
      await expectAccessible(page, problems);
      await context.close();
    });
  });
});
