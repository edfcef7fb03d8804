import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import {
  createProject,
  createTenant,
  createTestHttpApp,
  PASSWORD,
  personWithPassword,
  signIn,
  TEST_ADMIN_TOKEN,
  TestClient,
  totpCode,
} from '@cairn/testing';
import { ApiModule } from '@cairn/api-app';
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
 * The web console in Debian's chromium against a real api (listening on a loopback port, on its
 * own migrated database), serving a build of the current sources. People sign in for real (local
 * accounts, the session cookie, CSRF tokens on every change). Every page is checked with axe (no
 * serious or critical violation) and for CSP violations.
 */
jest.setTimeout(120_000);

const CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;connect-src 'self';font-src 'self';" +
  "object-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'self'";

describe('the web console', () => {
  let build: ReturnType<typeof buildConsole>;
  let server: ConsoleServer;
  let client: TestClient;
  let browser: Browser;
  let tenant: string;
  let project: string;
  let adminEmail: string;
  const operatorEmail = 'ops@example.com';

  beforeAll(async () => {
    build = buildConsole();
    server = await startConsoleServer(build.dir);
    client = new TestClient(server.app);
    browser = await launchChromium();
    tenant = (await createTenant(server.admin, 'acme')).slug;
    project = (await createProject(server.admin, tenant, 'web-app')).slug;
    adminEmail = (await personWithPassword(server.admin, client, 'admin', tenant)).user.email;
    const admin = await signIn(client, { tenant, email: adminEmail });
    for (const content of [
      'Production runs PostgreSQL 16 with pgvector; the HNSW index uses cosine distance.',
      'Deploys go through the Helm chart; the migration Job runs before the new pods start.',
      'Alice prefers small pull requests with one behaviour change each.',
    ]) {
      const stored = await admin.post(`/v1/projects/${project}/memories`, { content, category: 'fact', tags: ['ops'] });
      expect(stored.status).toBe(201);
    }
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

  /** A fresh browser context at 1280×720, watched for CSP violations and script errors. */
  async function open(path: string): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems };
  }

  /** Signed in through the sign-in page as `who`, then at `path`. */
  async function openSignedIn(path: string, who: { tenant?: string; email: string }) {
    const opened = await open('/sign-in');
    await signInThroughPage(opened.page, who);
    await opened.page.goto(`${server.origin}/console${path}`);
    return opened;
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
    it('shows the sign-in page, accessible and without CSP violations, and turns away a stranger', async () => {
      const { page, context, problems } = await open('/');
      await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
      expect(page.url()).toBe(`${server.origin}/console/sign-in`);
      await page.getByRole('button', { name: /Platform operator/ }).click();
      await page.getByLabel('Bootstrap token', { exact: true }).waitFor();
      await expectAccessible(page, problems);
      // Without a session the API refuses, whatever the browser asks for.
      const direct = await page.evaluate(`fetch('/v1/tenants/${tenant}/tokens').then((r) => r.status)`);
      expect(direct).toBe(401);
      await context.close();
    });

    it('explains a sign-in that an identity provider route refused, by the code it sends back', async () => {
      const { page, context, problems } = await open('/sign-in?error=user_not_found');
      await page
        .getByRole('alert')
        .filter({ hasText: 'There is no user with your email address here. Ask an administrator to add you.' })
        .waitFor();
      await expectAccessible(page, problems);
      await page.goto(`${server.origin}/console/sign-in?error=something_new`);
      await page.getByRole('alert').filter({ hasText: 'Signing in through the identity provider failed.' }).waitFor();
      await context.close();
    });

    it("signs in with a password, shows the API's error on a bad one, asks for the TOTP code, and signs out", async () => {
      const person = await personWithPassword(server.admin, client, 'member', tenant);
      const enrolling = await signIn(client, { tenant, email: person.user.email });
      const enrol = await enrolling.post('/v1/session/totp');
      expect(enrol.status).toBe(200);
      const confirm = await enrolling.post('/v1/session/totp/confirm', { code: totpCode(enrol.body.secret, -1) });
      expect(confirm.status).toBe(204);

      const { page, context, problems } = await open('/sign-in');
      await page.getByLabel('Workspace').fill(tenant);
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill(person.user.email);
      await page.getByLabel('Password', { exact: true }).fill('wrong password, surely');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Email or password is wrong' }).waitFor();
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByLabel('Authentication code').fill(totpCode(enrol.body.secret));
      await expectAccessible(page, problems);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      const cookies = await context.cookies();
      expect(cookies.map((cookie) => cookie.name)).toEqual(['__Host-cairn_session']);
      expect(cookies[0]).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });

      // A change without the CSRF token is refused even with the cookie (what a forged form would send).
      const forged = await page.evaluate(
        `fetch('/v1/tenants/${tenant}/tokens', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ role: 'reader', label: 'forged' }) }).then((r) => r.status)`,
      );
      expect(forged).toBe(403);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
      expect(await page.evaluate(`fetch('/v1/session').then((r) => r.status)`)).toBe(401);
      expect(problems.csp).toEqual([]);
      await context.close();
    });

    it('takes the bootstrap token once and has the operator create a real account', async () => {
      const { page, context, problems } = await open('/sign-in');
      await page.getByRole('button', { name: /Platform operator/ }).click();
      await page.getByLabel('Bootstrap token', { exact: true }).fill(TEST_ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('heading', { name: 'Create your platform account' }).waitFor();
      await expectAccessible(page, problems);
      await page.getByLabel('Email').fill('second-ops@example.com');
      await page.getByLabel('Name').fill('Second Ops');
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Repeat the password').fill(PASSWORD);
      await page.getByRole('button', { name: /Create/ }).click();
      await page.getByText('Your account is ready.').waitFor();
      await page.getByRole('button', { name: 'Go to sign-in' }).click();
      await signInThroughPage(page, { email: 'second-ops@example.com' });
      await page.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
      await context.close();
    });
  });

  describe('signed in as a tenant admin', () => {
    const asAdmin = (path: string) => openSignedIn(path, { tenant, email: adminEmail });

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
    const asOperator = (path: string) => openSignedIn(path, { email: operatorEmail });

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
