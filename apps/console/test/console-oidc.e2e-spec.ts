import {
  createTenant,
  freePort,
  type Idps,
  personWithPassword,
  SESSION_COOKIE,
  TestClient,
  uniqueSlug,
} from '@cairn/testing';
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
  CORP_SSO,
  startCorpSso,
} from './console-harness';

/**
 * Signing in to the web console both ways, in Debian's chromium: through an identity provider
 * (docs/sign-in.md, "OIDC federation": the real oidc-provider as the upstream IdP, whose own login
 * and consent pages the browser fills in) and with a password, then out again, everywhere. The api
 * listens on a loopback port picked first, so its public URL and the IdP's redirect URI name it.
 */
jest.setTimeout(120_000);

const PROVIDER = CORP_SSO;

describe('signing in to the web console through an identity provider, and out everywhere', () => {
  let build: ReturnType<typeof buildConsole>;
  let idps: Idps;
  let server: ConsoleServer;
  let client: TestClient;
  let browser: Browser;
  /** The tenant the provider signs everyone in to, and its name as the console shows it. */
  const tenant = uniqueSlug('acme');
  const tenantName = `Tenant ${tenant}`;

  beforeAll(async () => {
    build = buildConsole();
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const corp = await startCorpSso(origin, { tenant, roles: { admins: 'admin', devs: 'member' } });
    idps = corp.idps;
    server = await startConsoleServer(build.dir, {
      port,
      env: {
        API_PUBLIC_URL: origin,
        ...corp.env,
      },
    });
    expect(server.origin).toBe(origin);
    client = new TestClient(server.app);
    browser = await launchChromium();
    await createTenant(server.admin, tenant);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await idps?.close();
    build?.remove();
  });

  /**
   * A fresh browser context at 1280×720, watched for CSP violations and script errors. Only
   * loopback hosts are reachable: the IdP's page imports a web font from the internet, which
   * a test has no business fetching.
   */
  async function open(path: string): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems };
  }

  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  }

  /** A person at the IdP: the claims of their ID token. */
  async function personAtIdp(claims: { email?: string; groups?: string[] } = {}) {
    const login = uniqueSlug('ada');
    const email = claims.email ?? `${login}@example.com`;
    await idps.setAccount('main', login, {
      email,
      email_verified: true,
      name: 'Ada Lovelace',
      groups: claims.groups ?? ['devs'],
    });
    return { login, email };
  }

  /** From the sign-in page: the provider's button, then the IdP's own pages, as a person uses them. */
  async function signInAtIdp(page: Page, login: string): Promise<void> {
    await page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).click();
    await page.waitForURL((url) => url.origin === idps.urls.main);
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any password: the development login takes any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    // The consent page: Cairn asks for the person's email, profile and groups.
    await page.getByRole('heading', { name: 'Authorize' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
  }

  /** The users of the provider's tenant with this email (none until the first sign-in makes one). */
  async function usersWith(email: string) {
    const users = await server.admin.get(`/v1/tenants/${tenant}/users`);
    expect(users.status).toBe(200);
    return users.body.items.filter((user: { email: string }) => user.email === email);
  }

  async function sessionCookie(context: BrowserContext) {
    return (await context.cookies(server.origin)).find((cookie) => cookie.name === SESSION_COOKIE);
  }

  it("lists the provider's button on the sign-in page, accessible and under the strict CSP", async () => {
    const providers = await client.get('/v1/session/providers');
    expect(providers.body).toEqual({ local: true, oidc: [PROVIDER] });

    const { page, context, problems } = await open('/sign-in');
    await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
    const sso = page.getByRole('region', { name: 'Single sign-on' });
    const button = sso.getByRole('link', { name: `Sign in with ${PROVIDER.name}` });
    await button.waitFor();
    expect(await sso.getByRole('link').count()).toBe(1);
    expect(await button.getAttribute('href')).toBe(`/v1/session/oidc/${PROVIDER.id}/start`);
    // Local accounts are offered beside it.
    await page.getByRole('region', { name: 'Email and password' }).waitFor();
    await screenshot(page, 'sign-in');
    await expectAccessible(page, problems);
    await context.close();
  });

  it("signs a new person in through the IdP's login and consent pages, as the tenant and role their groups give, then out", async () => {
    const { login, email } = await personAtIdp({ groups: ['admins', 'unmapped'] });
    expect(await usersWith(email)).toEqual([]);

    const { page, context, problems } = await open('/sign-in');
    await signInAtIdp(page, login);
    // Back at the console, signed in: the topbar names the account, its tenant and role.
    await page.waitForURL(`${server.origin}/console/projects`);
    const topbar = page.getByRole('banner');
    await topbar.getByText(`${email} · admin`).waitFor();
    await topbar.getByText(tenantName).waitFor();
    // An admin's entries are in the menu.
    const menu = page.getByRole('navigation', { name: 'Console' });
    await menu.getByRole('link', { name: 'Users' }).waitFor();

    await menu.getByRole('link', { name: 'Your account' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByRole('definition').filter({ hasText: email }).waitFor();
    expect(await page.getByRole('definition').allTextContents()).toEqual(
      expect.arrayContaining(['Ada Lovelace', email, `admin in ${tenantName}`]),
    );
    // One session: this one, in this browser.
    const sessions = page.getByRole('region', { name: 'Active sessions' }).getByRole('row');
    await sessions.filter({ hasText: 'this session' }).waitFor();
    expect(await sessions.count()).toBe(2);
    await expectAccessible(page, problems);

    // The user was made just in time, with the role the groups give.
    expect(await usersWith(email)).toEqual([expect.objectContaining({ name: 'Ada Lovelace', role: 'admin' })]);
    const cookie = await sessionCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });

    await topbar.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${server.origin}/console/sign-in`);
    await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
    expect(await sessionCookie(context)).toBeUndefined();
    // A protected page sends the browser back to sign in, and the old cookie opens nothing.
    await page.goto(`${server.origin}/console/account`);
    await page.waitForURL(`${server.origin}/console/sign-in`);
    await page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).waitFor();
    const reused = await fetch(`${server.origin}/v1/session`, {
      headers: { cookie: `${SESSION_COOKIE}=${cookie!.value}` },
    });
    expect(reused.status).toBe(401);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  it('brings a refused sign-in back to the sign-in page with the reason: a domain not allowed, a cancel at the IdP', async () => {
    const stranger = await personAtIdp({ email: `${uniqueSlug('eve')}@elsewhere.example.org` });
    const refused = await open('/sign-in');
    await signInAtIdp(refused.page, stranger.login);
    await refused.page.waitForURL(`${server.origin}/console/sign-in?error=email_domain_not_allowed`);
    await refused.page
      .getByRole('alert')
      .filter({ hasText: 'Email addresses of your domain may not sign in here.' })
      .waitFor();
    // The console's own page, not an error body: the way in is offered again.
    await refused.page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
    await refused.page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).waitFor();
    expect(await sessionCookie(refused.context)).toBeUndefined();
    expect(await usersWith(stranger.email)).toEqual([]);
    await expectAccessible(refused.page, refused.problems);
    await refused.context.close();

    // A person who thinks better of it at the IdP.
    const { login } = await personAtIdp();
    const cancelled = await open('/sign-in');
    await cancelled.page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).click();
    await cancelled.page.getByPlaceholder('Enter any login').fill(login);
    await cancelled.page.getByRole('link', { name: '[ Cancel ]' }).click();
    await cancelled.page.waitForURL(`${server.origin}/console/sign-in?error=idp_refused`);
    await cancelled.page.getByRole('alert').filter({ hasText: 'The identity provider did not sign you in.' }).waitFor();
    expect(await sessionCookie(cancelled.context)).toBeUndefined();
    expect(cancelled.problems.csp).toEqual([]);
    await cancelled.context.close();
  });

  it('signs out everywhere: another browser signed in to the same account is sent to sign in at its next request', async () => {
    const person = await personWithPassword(server.admin, client, 'member', tenant);
    const who = { tenant, email: person.user.email };
    const here = await open('/sign-in');
    await signInThroughPage(here.page, who);
    const there = await open('/sign-in');
    await signInThroughPage(there.page, who);
    const thereMenu = there.page.getByRole('navigation', { name: 'Console' });
    await thereMenu.getByRole('link', { name: 'Your account' }).click();
    await there.page.getByRole('heading', { name: 'Your account' }).waitFor();

    await here.page.goto(`${server.origin}/console/account`);
    const sessions = here.page.getByRole('region', { name: 'Active sessions' });
    await sessions.getByRole('row').filter({ hasText: 'this session' }).waitFor();
    // A heading row, this browser and the other one.
    expect(await sessions.getByRole('row').count()).toBe(3);
    await sessions.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = here.page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await dialog.getByRole('button', { name: 'End every session' }).click();
    await here.page.waitForURL(`${server.origin}/console/sign-in`);
    expect(await sessionCookie(here.context)).toBeUndefined();

    // The other browser still shows its page; its next request (a page of the menu) finds the
    // session gone and the console sends it to sign in, saying why.
    await thereMenu.getByRole('link', { name: 'Projects and memories' }).click();
    await there.page.waitForURL(`${server.origin}/console/sign-in`);
    await there.page.getByRole('status').filter({ hasText: 'Your session has ended. Sign in again.' }).waitFor();
    expect(await sessionCookie(there.context)).toBeUndefined();
    await expectAccessible(there.page, there.problems);
    await there.page.goto(`${server.origin}/console/account`);
    await there.page.waitForURL(`${server.origin}/console/sign-in`);

    for (const { page, problems } of [here, there]) {
      expect(problems.csp).toEqual([]);
      expect(problems.errors).toEqual([]);
      expect(await page.evaluate("fetch('/v1/session').then((r) => r.status)")).toBe(401);
    }
    await here.context.close();
    await there.context.close();
  });
});
