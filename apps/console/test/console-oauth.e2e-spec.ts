import { randomBytes } from 'node:crypto';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, postRaw, rpc } from '@cairn/gateway-harness';
import { type OAuthWorld, startOAuthWorld } from '@cairn/oauth-harness';
import {
  createProject,
  createTenant,
  freePort,
  type Idps,
  issueToken,
  type LoopbackServer,
  PASSWORD,
  personWithPassword,
  startLoopbackServer,
  TestClient,
  uniqueSlug,
} from '@cairn/testing';
import { type Browser, type Page } from 'playwright-core';
import {
  buildConsole,
  launchChromium,
  type PageProblems,
  screenshot,
  seriousAxeViolations,
  VIEWPORT,
  watchProblems,
  CORP_SSO,
  startCorpSso,
} from './console-harness';
import { InMemoryOAuthClient, oauthMcpClient, refreshRefusal } from './oauth-client';

/**
 * An MCP client that only speaks OAuth, connecting to Cairn through Cairn's own authorization
 * server (docs/oauth.md), with the person deciding in the console, in Debian's chromium. The
 * client is the MCP SDK's own OAuth support (discovery from the gateway's 401, registration,
 * PKCE, code exchange, refresh) over an in-memory `OAuthClientProvider`; chromium opens the
 * authorization URL it asks for, and the answer arrives at the client's redirect URI, a loopback
 * server of the test's.
 * The api (serving the built console) and the gateway listen on loopback ports, the api's picked
 * first so the identity provider can name its callback.
 */
jest.setTimeout(180_000);

const PROVIDER = CORP_SSO;
const MEMORY = 'Release trains leave on Thursdays; the deploy freeze starts Wednesday noon.';
const CALLBACK_PAGE = '<!doctype html><html lang="en"><title>Back in the application</title><p>Done.</p></html>';

describe("an MCP client authorized through Cairn's OAuth server, the person deciding in the console", () => {
  let build: ReturnType<typeof buildConsole>;
  let idps: Idps;
  let world: OAuthWorld;
  let browser: Browser;
  /** The MCP client's redirect URI: where the browser comes back with the code (or the refusal). */
  let callback: LoopbackServer;
  let redirectUri: string;
  const tenant = uniqueSlug('oauth');
  const operatorEmail = `${uniqueSlug('ops')}@example.com`;
  let person: { id: string; email: string };
  let admin: { id: string; email: string };
  let projects: string[];
  const clients: Client[] = [];

  beforeAll(async () => {
    build = buildConsole();
    callback = await startLoopbackServer();
    callback.route('/oauth/callback', (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(CALLBACK_PAGE);
    });
    redirectUri = `http://127.0.0.1:${callback.port}/oauth/callback`;
    const apiPort = await freePort();
    const origin = `http://127.0.0.1:${apiPort}`;
    const corp = await startCorpSso(origin, { tenant, roles: { devs: 'member' } });
    idps = corp.idps;
    world = await startOAuthWorld({
      apiPort,
      consoleDir: build.dir,
      env: {
        ...corp.env,
      },
    });
    expect(world.issuer).toBe(origin);
    await createTenant(world.admin, tenant);
    person = (await personWithPassword(world.admin, world.client, 'member', tenant)).user;
    admin = (await personWithPassword(world.admin, world.client, 'admin', tenant)).user;
    projects = [(await createProject(world.admin, tenant)).slug, (await createProject(world.admin, tenant)).slug];
    // A memory of the first project for the client to find, written by the person through a token of theirs.
    const own = await issueToken(world.admin, tenant, { role: 'member', userId: person.id });
    const stored = await new TestClient(world.api)
      .as(own.token)
      .post(`/v1/projects/${projects[0]}/memories`, { content: MEMORY, scope: 'project' });
    expect(stored.status).toBe(201);
    const operator = await world.admin.post('/v1/platform/accounts', {
      email: operatorEmail,
      name: 'Ops',
      password: PASSWORD,
    });
    expect(operator.status).toBe(201);
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await browser?.close();
    await world?.close();
    await idps?.close();
    await callback?.close();
    build?.remove();
  });

  /**
   * A fresh browser at 1280×720, watched for CSP violations and script errors. Only loopback
   * hosts are reachable: the IdP's page imports a web font from the internet.
   */
  async function open(): Promise<{ page: Page; problems: PageProblems; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: VIEWPORT });
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    );
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const problems = await watchProblems(page);
    return { page, problems, close: () => context.close() };
  }

  async function expectAccessible(page: Page, problems: PageProblems): Promise<void> {
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
  }

  /** The client tries the gateway: 401, and the SDK registers and asks for the browser. */
  async function clientAsksForAccess(name: string) {
    const oauth = new InMemoryOAuthClient(name, redirectUri);
    const first = oauthMcpClient(world.resource, oauth);
    await expect(first.connect()).rejects.toBeInstanceOf(UnauthorizedError);
    return { oauth, transport: first.transport };
  }

  /** The authorization URL opened in the browser, signed out: the console sends the person to sign in first. */
  async function openSignedOut(page: Page, oauth: InMemoryOAuthClient): Promise<void> {
    await page.goto(oauth.authorizationUrl.href);
    await page.waitForURL(`${world.issuer}/console/sign-in`);
    await page.getByRole('status').filter({ hasText: 'An application asks for access to Cairn' }).waitFor();
  }

  async function signInWithPassword(page: Page, who: { tenant: string; email: string }): Promise<void> {
    await page.getByLabel('Workspace').fill(who.tenant);
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(who.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function atConsentPage(page: Page): Promise<void> {
    await page.waitForURL((url) => url.pathname.startsWith('/console/oauth/consent/'));
    await page.getByRole('heading', { name: 'Authorize an application' }).waitFor();
  }

  /** The authorization response, as the browser arrives at the client's redirect URI. */
  async function backAtClient(page: Page, oauth: InMemoryOAuthClient): Promise<URLSearchParams> {
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const answer = new URL(page.url()).searchParams;
    expect(answer.get('state')).toBe(oauth.lastState);
    // RFC 9207: the response names its issuer.
    expect(answer.get('iss')).toBe(world.issuer);
    return answer;
  }

  /** Connects the SDK client with the tokens `oauth` holds (refreshing them first if the gateway refuses). */
  async function connected(oauth: InMemoryOAuthClient) {
    const mcp = oauthMcpClient(world.resource, oauth);
    await mcp.connect();
    clients.push(mcp.client);
    return mcp.client;
  }

  const recall = (client: Client, project = projects[0]) =>
    callTool(client, 'memory_recall', { project, query: 'deploy freeze Thursdays' });

  it('signs the person in, takes a narrowed consent, serves memory_recall, refreshes, and stops at revocation', async () => {
    const { oauth, transport } = await clientAsksForAccess('Desktop Notes');
    // What the SDK found by itself: the gateway's metadata named this server, which registered it.
    const asked = oauth.authorizationUrl;
    expect(asked.origin + asked.pathname).toBe(`${world.issuer}/oauth/authorize`);
    const clientId = oauth.clientInformation()?.client_id;
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      code_challenge_method: 'S256',
      resource: world.resource,
      scope: 'mcp',
    });

    const { page, problems, close } = await open();
    await openSignedOut(page, oauth);
    await signInWithPassword(page, { tenant, email: person.email });
    await atConsentPage(page);
    const app = page.getByRole('region', { name: 'The application' });
    await app.getByText('Desktop Notes').waitFor();
    expect(await app.getByRole('definition').allTextContents()).toEqual([
      'Desktop Notes unverifiedThe application chose this name itself; Cairn has not checked it.',
      clientId,
      'Its own registration with this server: anyone can register an application, under any name.',
      `${redirectUri} (a program on this computer)`,
      `Cairn's MCP gateway, ${world.resource}`,
    ]);
    const who = page.getByRole('region', { name: 'Acting as you' });
    expect(await who.getByRole('definition').allTextContents()).toEqual([
      `Tenant ${tenant} (${tenant})`,
      `Test User, ${person.email}`,
      'member',
    ]);
    // The roles within the person's, agent offered first; every project by default.
    const roles = page.getByRole('radiogroup', { name: 'Role' }).getByRole('radio');
    expect(await roles.evaluateAll((radios) => radios.map((radio) => radio.getAttribute('value')))).toEqual([
      'member',
      'agent',
      'reader',
    ]);
    expect(await page.getByRole('radio', { name: /^agent/ }).isChecked()).toBe(true);
    expect(await page.getByRole('radio', { name: /^Every project/ }).isChecked()).toBe(true);
    await screenshot(page, 'oauth-consent');
    await expectAccessible(page, problems);

    // Narrowed: reader, and only the first project (after being told to choose one).
    await page.getByRole('radio', { name: /^reader/ }).check({ force: true });
    await page.getByRole('radio', { name: 'Only the projects I choose' }).check({ force: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByText('Choose at least one project.').waitFor();
    await page.getByRole('checkbox', { name: `Project ${projects[0]} (${projects[0]})` }).check({ force: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    const answer = await backAtClient(page, oauth);
    await transport.finishAuth(answer.get('code') as string);
    const first = oauth.tokens()!;
    expect(first).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), scope: 'mcp' });

    const client = await connected(oauth);
    const found = await recall(client);
    expect(found.isError).toBe(false);
    expect(found.text).toContain(MEMORY);
    // Within the consent: a reader's tools, and only the chosen project.
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('memory_recall');
    expect(tools).not.toContain('memory_store');
    expect((await recall(client, projects[1])).isError).toBe(true);

    // The gateway refuses the access token (as it does an expired one): the SDK refreshes and retries by itself.
    oauth.saveTokens({ ...first, access_token: randomBytes(32).toString('base64url') });
    const refreshedClient = await connected(oauth);
    const second = oauth.tokens()!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await recall(refreshedClient)).text).toContain(MEMORY);
    expect(oauth.authorizations).toHaveLength(1);

    // The person revokes it in the console.
    await page.goto(`${world.issuer}/console/account`);
    const section = page.getByRole('region', { name: 'Connected applications' });
    const row = section.getByRole('row').filter({ hasText: 'Desktop Notes' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['reader', projects[0], 'active']),
    );
    await expectAccessible(page, problems);
    await row.getByRole('button', { name: /^Revoke Desktop Notes/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Desktop Notes?' });
    await dialog.getByRole('button', { name: 'Revoke access' }).click();
    await section.getByRole('status').filter({ hasText: 'Desktop Notes no longer has access.' }).waitFor();
    await row.getByRole('cell', { name: /^revoked / }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);

    // The client's next call: the gateway answers 401, the SDK's refresh is refused too, so it
    // drops the tokens and asks for the person again (a second authorization URL).
    await expect(recall(refreshedClient)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.authorizations).toHaveLength(2);
    expect(oauth.tokens()).toBeUndefined();
    const bearer = { Authorization: `Bearer ${second.access_token}` };
    expect((await postRaw(world.resource, rpc('tools/list'), bearer)).status).toBe(401);
    expect(await refreshRefusal(world.issuer, clientId as string, second.refresh_token as string)).toBe(
      'invalid_grant',
    );
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it("lists the tenant's grants for its admin on the Tokens page, whose revocation stops the client", async () => {
    const { oauth, transport } = await clientAsksForAccess('Team Assistant');
    const personBrowser = await open();
    await openSignedOut(personBrowser.page, oauth);
    await signInWithPassword(personBrowser.page, { tenant, email: person.email });
    await atConsentPage(personBrowser.page);
    // As offered: the agent role, every project.
    await personBrowser.page.getByRole('button', { name: 'Allow' }).click();
    const answer = await backAtClient(personBrowser.page, oauth);
    await transport.finishAuth(answer.get('code') as string);
    const client = await connected(oauth);
    expect((await recall(client)).text).toContain(MEMORY);
    await personBrowser.close();

    const { page, problems, close } = await open();
    await page.goto(`${world.issuer}/console/sign-in`);
    await signInWithPassword(page, { tenant, email: admin.email });
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Tokens' }).click();
    const section = page.getByRole('region', { name: 'Connected applications' });
    const row = section.getByRole('row').filter({ hasText: 'Team Assistant' });
    await row.waitFor();
    // The person by email, the role and projects they gave.
    await row.getByRole('cell', { name: person.email }).waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['agent', 'all projects', 'active']),
    );
    await expectAccessible(page, problems);
    await row.getByRole('button', { name: /^Revoke Team Assistant/ }).click();
    await page
      .getByRole('dialog', { name: 'Revoke Team Assistant?' })
      .getByRole('button', { name: 'Revoke access' })
      .click();
    await row.getByRole('cell', { name: /^revoked / }).waitFor();
    // At its next call the client is refused; its refresh token too, so it must ask the person again.
    const revoked = { Authorization: `Bearer ${oauth.tokens()!.access_token}` };
    await expect(recall(client)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(oauth.authorizations).toHaveLength(2);
    expect((await postRaw(world.resource, rpc('tools/list'), revoked)).status).toBe(401);
    await close();
  });

  it('brings a person who signs in through an identity provider back to the request; Deny answers access_denied', async () => {
    const login = uniqueSlug('ada');
    const email = `${login}@example.com`;
    await idps.setAccount('main', login, { email, email_verified: true, name: 'Ada Lovelace', groups: ['devs'] });
    const { oauth } = await clientAsksForAccess('Declined Tool');
    const { page, problems, close } = await open();
    await openSignedOut(page, oauth);
    // Out to the identity provider and back through the api's callback, which lands on /console/.
    await page.getByRole('link', { name: `Sign in with ${PROVIDER.name}` }).click();
    await page.waitForURL((url) => url.origin === idps.urls.main);
    await page.getByPlaceholder('Enter any login').fill(login);
    await page.getByPlaceholder('and password').fill('any password: the development login takes any');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('heading', { name: 'Authorize' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await atConsentPage(page);
    const who = page.getByRole('region', { name: 'Acting as you' });
    await who.getByText(`Ada Lovelace, ${email}`).waitFor();
    await page.getByRole('region', { name: 'The application' }).getByText('Declined Tool').waitFor();

    await page.getByRole('button', { name: 'Deny' }).click();
    const answer = await backAtClient(page, oauth);
    expect(answer.get('error')).toBe('access_denied');
    expect(answer.get('code')).toBeNull();
    expect(oauth.tokens()).toBeUndefined();
    // Nothing was granted.
    await page.goto(`${world.issuer}/console/account`);
    await page.getByRole('region', { name: 'Connected applications' }).getByText('No application connected.').waitFor();
    expect(problems.csp).toEqual([]);
    expect(problems.errors).toEqual([]);
    await close();
  });

  it('offers a platform operator no consent, and brings them back as a person; an unknown request is explained', async () => {
    const { oauth } = await clientAsksForAccess('Operator Check');
    const { page, problems, close } = await open();
    await openSignedOut(page, oauth);
    await signInWithPassword(page, { tenant: '', email: operatorEmail });
    await atConsentPage(page);
    await page.getByRole('alert').filter({ hasText: 'You are signed in as a platform operator.' }).waitFor();
    // Nothing of the request is shown, and nothing can be allowed.
    expect(await page.getByText('Operator Check').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Allow' }).count()).toBe(0);
    await expectAccessible(page, problems);

    await page.getByRole('button', { name: 'Sign out and use a workspace account' }).click();
    await page.waitForURL(`${world.issuer}/console/sign-in`);
    await page.getByRole('status').filter({ hasText: 'An application asks for access to Cairn' }).waitFor();
    await signInWithPassword(page, { tenant, email: person.email });
    await atConsentPage(page);
    await page.getByRole('region', { name: 'The application' }).getByText('Operator Check').waitFor();

    // A request this browser never started (or one long expired): what to do about it.
    await page.goto(`${world.issuer}/console/oauth/consent/${randomBytes(16).toString('base64url')}`);
    await page.getByRole('alert').filter({ hasText: 'Go back to the application and connect it again.' }).waitFor();
    await expectAccessible(page, problems);
    await close();
  });
});
