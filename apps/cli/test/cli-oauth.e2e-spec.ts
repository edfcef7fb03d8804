import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CookieJar, type OAuthWorld, personWithProjects, startOAuthWorld } from '@cairn/oauth-harness';
import { PASSWORD } from '@cairn/testing';
import { CAIRN_ENTRY, type Home, makeHome } from './cli-harness';

type Person = Awaited<ReturnType<typeof personWithProjects>>;
interface KeptOAuth {
  mcpUrl: string;
  client: { client_id: string; issuer?: string };
  tokens: { access_token: string; refresh_token?: string; scope?: string; issuer?: string };
}

/**
 * `cairn login --oauth` and `cairn mcp` against Cairn's own authorization server (OAUTH_ENABLED)
 * and gateway, both real and listening, with the built command. The person's part (signing in
 * to the console and consenting) is done over HTTP as in oauth-server.e2e-spec.ts: CAIRN_BROWSER
 * is a command that opens nothing, and the test takes the authorization URL cairn prints.
 */
describe('cairn as an OAuth client of Cairn', () => {
  let world: OAuthWorld;
  let person: Person;
  let home: Home;
  let env: Record<string, string>;

  beforeAll(async () => {
    world = await startOAuthWorld();
    person = await personWithProjects(world, 'member');
    home = makeHome();
    // `true` opens no browser: the test plays the person, from the URL cairn prints.
    env = { ...home.env, CAIRN_BROWSER: 'true' };
  });
  afterAll(async () => {
    home?.remove();
    await world?.close();
  });

  const kept = () =>
    (JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as { oauth: KeptOAuth; token?: string })
      .oauth;

  /** Runs `cairn login --oauth` and consents, in the browser's place, to what `choice` says. */
  async function loginWithConsent(choice: { role: string; projects: string[] }) {
    const child = spawn(process.execPath, [CAIRN_ENTRY, 'login', '--oauth', '--mcp-url', world.resource, '--json'], {
      cwd: home.cwd,
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const authorizeUrl = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const url = /(http:\/\/\S+\/oauth\/authorize\?\S+)/.exec(stderr)?.[1];
        if (url) resolve(url);
      });
      void exited.then(() => reject(new Error(`cairn login ended before printing a URL:\n${stderr}`)));
    });
    const browser = new CookieJar();
    const start = await browser.fetch(authorizeUrl);
    expect(start.status).toBe(303);
    const interaction = new URL(start.headers.get('location') as string, world.issuer);
    const login = await browser.fetch(`${world.issuer}/v1/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tenant: person.tenant, email: person.user.email, password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;
    const details = (await (await browser.fetch(`${interaction.href}/details`)).json()) as Record<string, unknown>;
    // What the person is shown: cairn, registered as a native app, asking for the gateway.
    expect(details).toMatchObject({ client: { name: 'Cairn CLI', metadataDocument: false }, resource: world.resource });
    const consent = await browser.fetch(`${interaction.href}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(choice),
    });
    expect(consent.status).toBe(200);
    const back = await browser.fetch(((await consent.json()) as { redirectTo: string }).redirectTo);
    const callback = new URL(back.headers.get('location') as string);
    // The loopback redirect of RFC 8252: 127.0.0.1 and the port cairn listens on for this login.
    expect(callback.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(callback.searchParams.get('iss')).toBe(world.issuer);
    const landing = await fetch(callback);
    expect(await landing.text()).toContain('cairn is authorized');
    expect(await exited).toBe(0);
    return { result: JSON.parse(stdout) as Record<string, unknown>, browser, csrf };
  }

  /** `cairn mcp` (the built bridge) under the SDK's real stdio client; stderr kept even when connecting fails. */
  function bridge() {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CAIRN_ENTRY, 'mcp', '--no-offline'],
      env,
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'cli-oauth-test', version: '1.0.0' });
    const connected = client.connect(transport);
    return { client, connected, stderr: () => stderr };
  }

  const recallText = async (client: Client, query: string) => {
    const result = (await client.callTool({
      name: 'memory_recall',
      arguments: { project: person.projects[0], query },
    })) as { isError?: boolean; content: { type: string; text?: string }[] };
    expect(result.isError).toBeFalsy();
    return result.content.map((item) => item.text ?? '').join('\n');
  };

  it('logs in in the browser, keeps the tokens, recalls through the bridge, refreshes, and says to log in again once revoked', async () => {
    const [p0] = person.projects;
    const { result, browser, csrf } = await loginWithConsent({ role: 'agent', projects: [p0] });
    expect(result).toMatchObject({ mcpUrl: world.resource, scope: 'mcp', refreshable: true, tokenStoredIn: 'file' });

    // Kept beside the session token's place, bound to the issuer that issued them.
    const first = kept();
    expect(first.mcpUrl).toBe(world.resource);
    expect(first.client.client_id).toEqual(expect.any(String));
    expect(first.tokens).toMatchObject({ scope: 'mcp', issuer: world.issuer });
    expect(first.tokens.refresh_token).toEqual(expect.any(String));

    // The bridge presents the access token: store, then recall, within the consented project.
    const session = bridge();
    await session.connected;
    const stored = (await session.client.callTool({
      name: 'memory_store',
      arguments: { project: p0, content: 'The CLI reaches Cairn through OAuth' },
    })) as { isError?: boolean };
    expect(stored.isError).toBeFalsy();
    expect(await recallText(session.client, 'CLI OAuth')).toContain('The CLI reaches Cairn through OAuth');
    await session.client.close();

    // An access token the gateway no longer takes (as when it expires): the SDK's transport gets
    // the 401, refreshes with the kept refresh token (rotated by the server) and carries on.
    const file = JSON.parse(readFileSync(join(home.configDir, 'config.json'), 'utf8')) as { oauth: KeptOAuth };
    file.oauth.tokens.access_token = 'no-longer-valid';
    writeFileSync(join(home.configDir, 'config.json'), JSON.stringify(file));
    const refreshed = bridge();
    await refreshed.connected;
    expect(await recallText(refreshed.client, 'CLI OAuth')).toContain('The CLI reaches Cairn through OAuth');
    await refreshed.client.close();
    const second = kept();
    expect(second.tokens.access_token).not.toBe('no-longer-valid');
    expect(second.tokens.refresh_token).toEqual(expect.any(String));
    expect(second.tokens.refresh_token).not.toBe(first.tokens.refresh_token);
    expect(second.client.client_id).toBe(first.client.client_id);

    // The person revokes the grant in the console: the bridge cannot refresh its way back, opens
    // no browser (no --oauth) and says what to do.
    const grants = (await (await browser.fetch(`${world.issuer}/v1/session/oauth-grants`)).json()) as {
      items: { id: string; clientId: string }[];
    };
    const grant = grants.items.find((item) => item.clientId === first.client.client_id);
    const revoke = await browser.fetch(`${world.issuer}/v1/session/oauth-grants/${grant?.id}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': csrf },
    });
    expect(revoke.status).toBe(204);
    const revoked = bridge();
    await expect(revoked.connected).rejects.toThrow(/run `cairn login --oauth` again/);
    expect(revoked.stderr()).toContain('run `cairn login --oauth` again');
    await revoked.client.close().catch(() => undefined);
    // The dead tokens are dropped; the registration is kept for the next login.
    expect(kept().tokens).toBeUndefined();
    expect(kept().client.client_id).toBe(first.client.client_id);
  });
});
