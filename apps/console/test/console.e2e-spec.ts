import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import {
  createProject,
  createTenant,
  createUser,
  issueToken,
  TEST_ADMIN_TOKEN,
  TestClient,
  createTestHttpApp,
} from '@cairn/testing';
import { ApiModule } from '@cairn/api-app';
import {
  buildConsole,
  type ConsoleServer,
  launchChromium,
  type PageProblems,
  screenshot,
  seriousAxeViolations,
  startConsoleServer,
  VIEWPORT,
  watchProblems,
} from './console-harness';
import { errorBody, type SessionView, stubSessionApi, tenantSession } from './session-stub';

/**
 * The web console in Debian's chromium against a real api (listening on a loopback port, on its
 * own migrated database), serving a build of the current sources. Every page is checked with axe
 * (no serious or critical violation) and for CSP violations.
 */
jest.setTimeout(120_000);

const CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';font-src 'self';" +
  "object-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'self'";

describe('the web console', () => {
  let build: ReturnType<typeof buildConsole>;
  let server: ConsoleServer;
  let browser: Browser;
  let tenant: string;
  let project: string;
  let adminEmail: string;
  let adminToken: string;

  beforeAll(async () => {
    build = buildConsole();
    server = await startConsoleServer(build.dir);
    browser = await launchChromium();
    tenant = (await createTenant(server.admin, 'acme')).slug;
    project = (await createProject(server.admin, tenant, 'web-app')).slug;
    const admin = await createUser(server.admin, tenant, 'admin', 'alice@example.com');
    adminEmail = admin.email;
    adminToken = (await issueToken(server.admin, tenant, { role: 'admin', userId: admin.id })).token;
    const agent = server.admin.as(adminToken);
    for (const content of [
      'Production runs PostgreSQL 16 with pgvector; the HNSW index uses cosine distance.',
      'Deploys go through the Helm chart; the migration Job runs before the new pods start.',
      'Alice prefers small pull requests with one behaviour change each.',
    ]) {
      const stored = await agent.post(`/v1/projects/${project}/memories`, { content, category: 'fact', tags: ['ops'] });
      expect(stored.status).toBe(201);
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    build?.remove();
  });

  /** A fresh browser context at 1280×720, watched for CSP violations and script errors. */
  async function open(
    path: string,
    session: {
      stub?: SessionView | null;
      token?: string;
      providers?: { local: boolean; oidc: { id: string; name: string }[] };
    } = {},
  ): Promise<{
    page: Page;
    context: BrowserContext;
    problems: PageProblems;
    stub: Parameters<typeof stubSessionApi>[1];
  }> {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    if (session.token) await context.setExtraHTTPHeaders({ authorization: `Bearer ${session.token}` });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    const stub = { session: session.stub ?? undefined, providers: session.providers };
    await stubSessionApi(page, stub);
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems, stub };
  }

  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  }

  describe('serving', () => {
    it('answers the app with a strict CSP and helmet headers, hashed assets cached for a year', async () => {
      const index = await fetch(`${server.origin}/console/`);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toMatch(/text\/html/);
      expect(index.headers.get('content-security-policy')).toBe(CSP);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(index.headers.get('x-content-type-options')).toBe('nosniff');
      expect(index.headers.get('x-frame-options')).toBe('DENY');
      expect(index.headers.get('referrer-policy')).toBe('same-origin');
      const html = await index.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/<style|style="/);
      const asset = /src="(\/console\/assets\/index-[\w-]+\.js)"/.exec(html)![1];
      const script = await fetch(`${server.origin}${asset}`);
      expect(script.status).toBe(200);
      expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(script.headers.get('content-security-policy')).toBe(CSP);
    });

    it('answers index.html for client routes, 404 for a missing asset, and redirects /console', async () => {
      const route = await fetch(`${server.origin}/console/projects/web-app/memories/x`);
      expect(route.status).toBe(200);
      expect(await route.text()).toContain('<div id="root">');
      expect((await fetch(`${server.origin}/console/assets/index-gone.js`)).status).toBe(404);
      const bare = await fetch(`${server.origin}/console`, { redirect: 'manual' });
      expect(bare.status).toBe(308);
      expect(bare.headers.get('location')).toBe('/console/');
    });

    it('leaves the JSON API without the console headers', async () => {
      const status = await fetch(`${server.origin}/healthz`);
      expect(status.status).toBe(200);
      expect(status.headers.get('content-security-policy')).toBeNull();
    });

    it('answers 503 saying to run npm run build when the console is not built', async () => {
      const config = { ...server.config, console: { dir: '/nonexistent/console' } };
      const app = await createTestHttpApp(ApiModule.register(config), config);
      try {
        const answer = await new TestClient(app).get('/console/tokens');
        expect(answer.status).toBe(503);
        expect(answer.body.error.code).toBe('console_not_built');
        expect(answer.body.error.message).toContain('npm run build');
        expect(answer.headers['content-security-policy']).toBe(CSP);
      } finally {
        await app.close();
      }
    });
  });

  describe('signing in', () => {
    it('shows the sign-in page with the providers, accessible and without CSP violations', async () => {
      const { page, context, problems } = await open('/', {
        providers: { local: true, oidc: [{ id: 'corp', name: 'Corp SSO' }] },
      });
      await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
      expect(page.url()).toBe(`${server.origin}/console/sign-in`);
      expect(await page.getByRole('link', { name: 'Sign in with Corp SSO' }).getAttribute('href')).toBe(
        '/v1/session/oidc/corp/start',
      );
      await page.getByRole('button', { name: /Platform operator/ }).click();
      await page.getByLabel('Bootstrap token', { exact: true }).waitFor();
      await screenshot(page, 'sign-in');
      await expectAccessible(page, problems);
      await context.close();
    });

    it("shows the API's error on a bad login, then asks for the TOTP code when the account needs one", async () => {
      const { page, context, problems, stub } = await open('/sign-in');
      await page.getByLabel('Workspace').fill(tenant);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(adminEmail);
      await page.getByLabel('Password', { exact: true }).fill('wrong password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Wrong email or password' }).waitFor();
      stub.login = (body) =>
        body.totp === '123456'
          ? { status: 200, body: tenantSession(tenant, adminEmail) }
          : { status: 401, body: errorBody('totp_required', 'Enter your authentication code') };
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Authentication code').fill('123456');
      await expectAccessible(page, problems);
      await context.setExtraHTTPHeaders({ authorization: `Bearer ${adminToken}` });
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      expect(problems.csp).toEqual([]);
      await context.close();
    });
  });

  describe('signed in as a tenant admin', () => {
    const asAdmin = (path: string) => open(path, { stub: tenantSession(tenant, adminEmail), token: adminToken });

    it('issues a token shown once with a copy button, and revokes it after confirmation', async () => {
      const { page, context, problems } = await asAdmin('/tokens');
      await page.getByRole('heading', { name: 'Tokens', level: 1 }).waitFor();
      await page.getByLabel('Label').fill('ci runner');
      await page.getByRole('button', { name: 'Issue token' }).click();
      const value = page.getByLabel('Token', { exact: true });
      await value.waitFor();
      const token = await value.inputValue();
      expect(token).toMatch(/^cairn_/);
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied to the clipboard.').waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(token);
      await screenshot(page, 'tokens');
      await expectAccessible(page, problems);
      await page.getByRole('button', { name: 'I have stored it' }).click();
      expect(await page.getByLabel('Token', { exact: true }).count()).toBe(0);
      expect(await page.content()).not.toContain(token);

      await page.getByRole('button', { name: 'Revoke ci runner' }).click();
      const dialog = page.getByRole('dialog', { name: 'Revoke ci runner?' });
      await dialog.waitFor();
      await expectAccessible(page, problems);
      await dialog.getByRole('button', { name: 'Revoke token' }).click();
      await page.getByRole('row', { name: /ci runner.*revoked/ }).waitFor();
      const introspect = await server.admin.post('/v1/auth/introspect', { token });
      expect(introspect.body.active).toBe(false);
      await context.close();
    });

    it('searches the memories of a project and opens a memory', async () => {
      const { page, context, problems } = await asAdmin('/projects');
      await page.getByRole('link', { name: /Project web-app/ }).click();
      await page.getByRole('heading', { name: 'Memories of web-app' }).waitFor();
      await page.getByRole('listitem').filter({ hasText: 'Helm chart' }).waitFor();
      await page.getByRole('searchbox', { name: 'Search' }).fill('pgvector index');
      await page.getByRole('radio', { name: 'Keyword' }).check({ force: true });
      await page.getByRole('button', { name: 'Search', exact: true }).click();
      await page.getByRole('heading', { name: 'Results for “pgvector index”' }).waitFor();
      const hit = page.getByRole('link', { name: /PostgreSQL 16 with pgvector/ });
      await hit.waitFor();
      await screenshot(page, 'memories');
      await expectAccessible(page, problems);
      await hit.click();
      await page.getByRole('heading', { name: 'Memory', level: 1 }).waitFor();
      await page.getByRole('heading', { name: 'Versions' }).waitFor();
      await page.getByText('not embedded yet').or(page.getByText('embedded (semantic')).first().waitFor();
      await screenshot(page, 'memory');
      await expectAccessible(page, problems);
      await context.close();
    });

    it('lists projects and users', async () => {
      const { page, context, problems } = await asAdmin('/users');
      await page.getByRole('cell', { name: adminEmail }).waitFor();
      await expectAccessible(page, problems);
      await page.getByRole('link', { name: 'Projects and memories' }).click();
      await page.getByRole('cell', { name: 'web-app', exact: true }).waitFor();
      await screenshot(page, 'projects');
      await expectAccessible(page, problems);
      await context.close();
    });
  });

  describe('signed in as a platform operator', () => {
    const platform: SessionView = {
      ...tenantSession('x', 'ops@example.com'),
      kind: 'platform',
      tenant: undefined,
    };
    const asOperator = (path: string) => open(path, { stub: platform, token: TEST_ADMIN_TOKEN });

    it('lists, creates and deletes tenants (typing the id to confirm)', async () => {
      const { page, context, problems } = await asOperator('/');
      await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'acme', exact: true }).waitFor();
      await page.getByLabel('Id').fill('doomed');
      await page.getByLabel('Name').fill('Doomed Inc');
      await page.getByRole('button', { name: 'Create tenant' }).click();
      await page.getByRole('cell', { name: 'doomed', exact: true }).waitFor();
      await screenshot(page, 'tenants');
      await expectAccessible(page, problems);
      await page.getByRole('button', { name: 'Delete doomed' }).click();
      const dialog = page.getByRole('dialog');
      const confirm = dialog.getByRole('button', { name: 'Delete tenant' });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel('Type doomed to confirm').fill('doomed');
      await confirm.click();
      await page.getByRole('status').filter({ hasText: 'Tenant doomed deleted' }).waitFor();
      expect((await server.admin.get('/v1/tenants/doomed')).status).toBe(404);
      await context.close();
    });

    it('shows the migration status', async () => {
      const { page, context, problems } = await asOperator('/migrations');
      await page.getByRole('heading', { name: 'Tenant schemas' }).waitFor();
      await page.getByRole('cell', { name: 'acme', exact: true }).waitFor();
      await screenshot(page, 'migrations');
      await expectAccessible(page, problems);
      await context.close();
    });
  });
});
