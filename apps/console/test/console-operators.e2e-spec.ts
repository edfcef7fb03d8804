import { PASSWORD, signIn, TestClient, totpCode } from '@cairn/testing';
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
 * The platform operators' own pages in Debian's chromium against a real api (see
 * console.e2e-spec.ts for the set-up): the Operators page (disable after confirmation, enable, a
 * password link revealed once and copied) and a second factor enrolled by an operator and then
 * asked for at sign-in. Every change is checked through the API; every page with axe and for CSP
 * violations.
 */
jest.setTimeout(120_000);

const NARROW = { width: 1024, height: 720 };

describe('the console: platform operators', () => {
  let build: ReturnType<typeof buildConsole>;
  let server: ConsoleServer;
  let client: TestClient;
  let browser: Browser;
  const me = { email: 'ops-me@example.com', name: 'Me Operator' };
  const other = { email: 'ops-other@example.com', name: 'Other Operator' };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    build = buildConsole();
    server = await startConsoleServer(build.dir);
    client = new TestClient(server.app);
    browser = await launchChromium();
    for (const operator of [me, other]) {
      const created = await server.admin.post('/v1/platform/accounts', { ...operator, password: PASSWORD });
      expect(created.status).toBe(201);
      ids[operator.email] = created.body.account.id;
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    build?.remove();
  });

  async function open(
    path: string,
    who: { email: string },
  ): Promise<{ page: Page; context: BrowserContext; problems: PageProblems }> {
    const context = await browser.newContext({
      viewport: VIEWPORT,
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    await page.goto(`${server.origin}/console/sign-in`);
    await signInThroughPage(page, who);
    await page.goto(`${server.origin}/console${path}`);
    return { page, context, problems };
  }

  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  }

  it('lists the operators; disables one after confirmation (their session ends at once), enables them, and issues a password link', async () => {
    const elsewhere = await signIn(client, { email: other.email });
    expect((await elsewhere.get('/v1/session')).status).toBe(200);

    const { page, context, problems } = await open('/tenants', me);
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Operators' }).click();
    await page.getByRole('heading', { name: 'Operators', level: 1 }).waitFor();
    const mine = page.getByRole('row').filter({ hasText: me.email });
    const row = page.getByRole('row').filter({ hasText: other.email });
    await mine.getByRole('cell', { name: `${me.name} (you)` }).waitFor();
    await row.getByRole('cell', { name: 'active' }).waitFor();
    // No one disables themselves (the API refuses it too).
    expect(await mine.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    await screenshot(page, 'operators');
    await expectAccessible(page, problems);

    await row.getByRole('button', { name: 'Disable' }).click();
    const dialog = page.getByRole('dialog', { name: `Disable ${other.email}?` });
    await dialog.getByText('Every browser session of this operator ends at once').waitFor();
    await expectAccessible(page, problems);
    await dialog.getByRole('button', { name: 'Disable operator' }).click();
    await row.getByRole('cell', { name: 'disabled' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: `${other.email} disabled.` })
      .waitFor();
    const ended = await elsewhere.get('/v1/session');
    expect({ status: ended.status, code: ended.body.error.code }).toEqual({ status: 401, code: 'session_expired' });
    const listed = await server.admin.get('/v1/platform/accounts');
    expect(listed.body.items.find((account: { id: string }) => account.id === ids[other.email])).toMatchObject({
      disabled: true,
    });
    // A disabled operator gets no password link until enabled.
    expect(await row.getByRole('button', { name: 'Password link' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Enable' }).click();
    await row.getByRole('cell', { name: 'active' }).waitFor();

    await row.getByRole('button', { name: 'Password link' }).click();
    await page.getByRole('heading', { name: `Password link for ${other.email}` }).waitFor();
    const link = await page.getByLabel('Link', { exact: true }).inputValue();
    expect(link).toMatch(new RegExp(`^${server.origin}/console/reset-password#token=[A-Za-z0-9_-]{43}$`));
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(link);
    await expectAccessible(page, problems);
    await page.setViewportSize(NARROW);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(NARROW.width);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('heading', { name: `Password link for ${other.email}` }).waitFor({ state: 'detached' });

    // The link works once: the operator sets a password with it and signs in.
    const reset = await context.newPage();
    await reset.goto(link);
    await reset.getByLabel('New password').fill('the other operator has a new passphrase');
    await reset.getByLabel('Repeat the password').fill('the other operator has a new passphrase');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.getByText('Your password is set.').waitFor();
    await expect(
      signIn(client, { email: other.email, password: 'the other operator has a new passphrase' }),
    ).resolves.toBeDefined();
    const audit = await server.admin.get('/v1/audit?action=platform.account.&limit=50');
    const mineActions = audit.body.items
      .filter((entry: { actor: string }) => entry.actor === `platform-account:${ids[me.email]}`)
      .map((entry: { action: string }) => entry.action);
    expect(mineActions).toEqual(
      expect.arrayContaining([
        'platform.account.disable',
        'platform.account.enable',
        'platform.account.password_link.issue',
      ]),
    );
    await context.close();
  });

  it('enrols a second factor for an operator from the account page; signing in then asks for the code', async () => {
    const { page, context, problems } = await open('/account', me);
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByRole('button', { name: 'Set up a second factor' }).click();
    await page.getByRole('img', { name: 'QR code of the otpauth URL' }).waitFor();
    const secret = (await page.locator('.totp-enrolment dd code').first().textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await page.getByText(/^otpauth:\/\/totp\/Cairn:ops-me%40example\.com/).waitFor();
    await expectAccessible(page, problems);
    await page.getByLabel('Code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByRole('status').filter({ hasText: 'Second factor on' }).waitFor();
    await page.getByRole('button', { name: 'Turn off the second factor' }).waitFor();
    await expectAccessible(page, problems);
    const noCode = await client.post('/v1/session/login', { email: me.email, password: PASSWORD });
    expect({ status: noCode.status, code: noCode.body.error.code }).toEqual({ status: 401, code: 'totp_required' });
    await context.close();

    // Signing in through the page now asks for the code, and takes a fresh one.
    const fresh = await browser.newContext({ viewport: VIEWPORT });
    const signInPage = await fresh.newPage();
    signInPage.setDefaultTimeout(15_000);
    const signInProblems = await watchProblems(signInPage);
    await signInPage.goto(`${server.origin}/console/sign-in`);
    await signInPage.getByLabel('Workspace').fill('');
    await signInPage.getByRole('textbox', { name: 'Email', exact: true }).fill(me.email);
    await signInPage.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await signInPage.getByLabel('Authentication code').fill(totpCode(secret, 1));
    await expectAccessible(signInPage, signInProblems);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    await signInPage.getByRole('heading', { name: 'Tenants', level: 1 }).waitFor();
    await signInPage.getByRole('link', { name: 'Operators' }).click();
    await signInPage
      .getByRole('row')
      .filter({ hasText: me.email })
      .getByRole('cell', { name: 'on', exact: true })
      .waitFor();
    await fresh.close();
  });
});
