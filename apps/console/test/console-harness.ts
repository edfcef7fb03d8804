import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiModule } from '@cairn/api-app';
import { type CairnConfig } from '@cairn/config';
import {
  createTestDatabase,
  createTestHttpApp,
  PASSWORD,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
  type Idps,
  startIdps,
} from '@cairn/testing';
import { type Browser, chromium, type Page } from 'playwright-core';

export const REPO_ROOT = resolve(__dirname, '../../..');
/** Debian's chromium (scripts/install-deps.sh installs it); the tests never download a browser. */
export const CHROMIUM = '/usr/bin/chromium';
export const VIEWPORT = { width: 1280, height: 720 };

/** `npm run console:build` of the current sources into a directory of its own (dist/ is left alone). */
export function buildConsole(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-console-'));
  execFileSync(
    process.execPath,
    [
      join(REPO_ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--config',
      'apps/console/vite.config.mts',
      '--outDir',
      dir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    { cwd: REPO_ROOT, stdio: 'pipe' },
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ConsoleServer {
  readonly app: NestFastifyApplication;
  readonly config: CairnConfig;
  readonly database: TestDatabase;
  /** `http://127.0.0.1:<port>`: the api listening for real, as the browser needs. */
  readonly origin: string;
  readonly admin: TestClient;
  close(): Promise<void>;
}

export interface ConsoleServerOptions {
  /** The loopback port to listen on (a free one by default); a test that must name the origin in `env` picks it first. */
  readonly port?: number;
  /** Configuration variables on top of the tests' own (e.g. API_PUBLIC_URL and OIDC_PROVIDERS). */
  readonly env?: Record<string, string>;
}

/** The api app on its own migrated database, listening on a loopback port, serving `consoleDir`. */
export async function startConsoleServer(
  consoleDir: string,
  options: ConsoleServerOptions = {},
): Promise<ConsoleServer> {
  const database = await createTestDatabase();
  const config: CairnConfig = {
    ...testConfig(database.url, testRedisUrl(), { QUEUE_PREFIX: `c${Date.now()}`, ...options.env }),
    console: { dir: consoleDir },
  };
  const app = await createTestHttpApp(ApiModule.register(config), config);
  await app.listen(options.port ?? 0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    config,
    database,
    origin: `http://127.0.0.1:${port}`,
    admin: new TestClient(app).as(TEST_ADMIN_TOKEN),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The console's browser tests drive Debian's chromium at ${CHROMIUM}, which is not installed: ` +
        'run `sudo scripts/install-deps.sh` (or `apt-get install chromium`). They never download a browser.',
    );
  }
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** What a page reported that it should not have: CSP violations, script errors, console errors. */
export interface PageProblems {
  readonly csp: string[];
  readonly errors: string[];
}

/** Watches a page for CSP violations (the browser's own event and its console report) and uncaught errors. */
export async function watchProblems(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { csp: [], errors: [] };
  await page.exposeBinding('__cspViolation', (_source, text: string) => problems.csp.push(text));
  // Browser code as text: this file is compiled for Node, without the DOM's types.
  await page.addInitScript({
    content:
      "document.addEventListener('securitypolicyviolation', (e) => window.__cspViolation(e.violatedDirective + ' blocked ' + e.blockedURI));",
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) problems.csp.push(message.text());
  });
  page.on('pageerror', (error) => problems.errors.push(error.message));
  return problems;
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((n) => n.target.join(' ')).join('; ')}`,
    );
}

/** With CONSOLE_SCREENSHOTS=1, saves the page as docs/console/<name>.png (README links them). */
export async function screenshot(page: Page, name: string): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- a test switch, not service configuration
  if (process.env.CONSOLE_SCREENSHOTS !== '1') return;
  const dir = join(REPO_ROOT, 'docs', 'console');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: false });
}

/**
 * Signs in through the sign-in page the way a person does (workspace empty for a platform
 * operator), and waits until the console has left it. The browser keeps the session cookie.
 */
export async function signInThroughPage(
  page: Page,
  who: { tenant?: string; email: string; password?: string },
): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in to Cairn' }).waitFor();
  await page.getByLabel('Workspace').fill(who.tenant ?? '');
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(who.email);
  await page.getByLabel('Password', { exact: true }).fill(who.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The identity provider the console's sign-in tests federate with, as the sign-in page names it. */
export const CORP_SSO = { id: 'corp', name: 'Corp SSO' };

/**
 * A real identity provider (oidc-provider on a loopback port) with Cairn at `origin` as its
 * client, and the environment that configures Cairn for it: new people from example.com are
 * created in `tenant` with the role their groups map to in `roles`.
 */
export async function startCorpSso(
  origin: string,
  options: { tenant: string; roles: Record<string, string> },
): Promise<{ idps: Idps; env: Record<string, string> }> {
  const secret = `client-secret-${randomBytes(8).toString('hex')}`;
  const idps = await startIdps([
    {
      name: 'main',
      clients: [
        {
          client_id: 'cairn',
          client_secret: secret,
          redirect_uris: [`${origin}/v1/session/oidc/${CORP_SSO.id}/callback`],
        },
      ],
    },
  ]);
  const provider = {
    ...CORP_SSO,
    issuer: idps.urls.main,
    clientId: 'cairn',
    scopes: ['openid', 'email', 'profile', 'groups'],
    tenant: options.tenant,
    allowedDomains: ['example.com'],
    roles: options.roles,
    jitUsers: true,
  };
  return {
    idps,
    env: {
      OIDC_PROVIDERS: JSON.stringify([provider]),
      OIDC_CLIENT_SECRETS: JSON.stringify({ [CORP_SSO.id]: secret }),
    },
  };
}
