import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { parse as parseToml } from 'smol-toml';
import { type CliWorld, type Home, makeHome, runCairn, startCliWorld, tenantWithToken } from './cli-harness';

/**
 * The `cairn` command's session commands against a real api and gateway: login keeps only a
 * token the server accepted, doctor checks every link and says how to fix what is broken, and
 * connect writes each client's documented configuration without the token in it.
 */
describe('cairn login, whoami, logout, doctor, connect', () => {
  let world: CliWorld;
  let home: Home;
  let member: Awaited<ReturnType<typeof tenantWithToken>>;

  beforeAll(async () => {
    world = await startCliWorld();
    member = await tenantWithToken(world);
  });
  afterAll(() => world.close());
  beforeEach(() => (home = makeHome()));
  afterEach(() => home.remove());

  const cairn = (args: string[], env: Record<string, string> = {}, input?: string) =>
    runCairn(args, { env: { ...home.env, ...env }, cwd: home.cwd, input });
  const configFile = () => join(home.configDir, 'config.json');

  it('login checks the token first, keeps server, token and project in a 0600 file, and whoami reads it back', async () => {
    const login = await cairn(['login', '--url', world.apiUrl, '--project', member.projects[1], '--json'], {
      CAIRN_TOKEN: member.token,
    });
    expect(login.code).toBe(0);
    expect(login.json()).toMatchObject({
      tenant: member.tenant,
      role: 'member',
      project: member.projects[1],
      tokenStoredIn: 'file',
    });
    expect(statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(statSync(home.configDir).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      version: 1,
      url: world.apiUrl,
      token: member.token,
      project: member.projects[1],
    });

    const whoami = await cairn(['whoami', '--json']);
    expect(whoami.code).toBe(0);
    expect(whoami.json()).toMatchObject({
      kind: 'session',
      role: 'member',
      tenant: { slug: member.tenant },
      sources: { token: 'file', url: 'file', project: 'file' },
    });
    const human = await cairn(['whoami']);
    expect(human.stdout).toContain(member.tenant);

    const logout = await cairn(['logout', '--json']);
    expect(logout.json()).toMatchObject({ removed: ['token (file)'] });
    expect(JSON.parse(readFileSync(configFile(), 'utf8'))).toEqual({
      version: 1,
      url: world.apiUrl,
      project: member.projects[1],
    });
    const after = await cairn(['whoami']);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/No session token configured/);
  });

  it('login refuses a bad token (exit 4), an unknown project (exit 5), no token without a terminal (exit 2), and keeps nothing', async () => {
    const refused = await cairn(['login', '--url', world.apiUrl], { CAIRN_TOKEN: 'cairn_st_not-a-real-token' });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/error:/);
    expect(refused.stderr).toMatch(/cairn login/);
    const unknown = await cairn(['login', '--url', world.apiUrl, '--project', 'no-such-project'], {
      CAIRN_TOKEN: member.token,
    });
    expect(unknown.code).toBe(5);
    expect(unknown.stderr).toContain(member.projects[0]);
    const none = await cairn(['login', '--url', world.apiUrl]);
    expect(none.code).toBe(2);
    const badUrl = await cairn(['login', '--url', 'ftp://x.example'], { CAIRN_TOKEN: member.token });
    expect(badUrl.code).toBe(2);
    expect(existsSync(configFile())).toBe(false);
  });

  it('login --keychain falls back to the file, with a warning, on a machine without a keychain (this one: no Secret Service)', async () => {
    const login = await cairn(['login', '--url', world.apiUrl, '--keychain', '--json'], { CAIRN_TOKEN: member.token });
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/No usable OS keychain/);
    expect(login.json().tokenStoredIn).toBe('file');
    expect(JSON.parse(readFileSync(configFile(), 'utf8')).token).toBe(member.token);
  });

  it('doctor passes every check against a healthy server, with JSON for scripts', async () => {
    const doctor = await cairn(['doctor', '--json'], { CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token });
    const report = doctor.json();
    expect(report.failed).toBe(0);
    expect(doctor.code).toBe(0);
    const byName = Object.fromEntries(report.checks.map((c: { name: string }) => [c.name, c]));
    expect(Object.keys(byName)).toEqual(
      expect.arrayContaining(['server', 'reachability', 'tls', 'token', 'role', 'projects', 'clock', 'search', 'mcp']),
    );
    expect(byName.tls).toMatchObject({ status: 'ok', detail: expect.stringContaining('loopback') });
    expect(byName.mcp).toMatchObject({ status: 'ok', detail: expect.stringContaining('protocol 2025-11-25') });
    expect(byName.mcp.detail).toContain(world.mcpUrl);
    expect(byName.mcp.detail).toContain('from the server');
    // The test stack runs the built-in hash embedder: doctor says so and how to get meaning.
    expect(byName.search).toMatchObject({ status: 'warn', fix: expect.stringContaining('EMBEDDING_PROVIDER') });
    const human = await cairn(['doctor', '--no-color'], { CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/All checks passed/);
  });

  it('doctor fails with exit 8 and the fix for a refused token, an unreachable server, and a missing configuration', async () => {
    const refused = await cairn(['doctor', '--json'], {
      CAIRN_URL: world.apiUrl,
      CAIRN_TOKEN: 'cairn_st_revoked-or-made-up',
    });
    expect(refused.code).toBe(8);
    const token = refused.json().checks.find((c: { name: string }) => c.name === 'token');
    expect(token).toMatchObject({ status: 'fail', fix: expect.stringContaining('cairn login') });
    expect(refused.stderr).toBe('');

    const down = await cairn(['doctor', '--json'], { CAIRN_URL: 'http://127.0.0.1:9', CAIRN_TOKEN: member.token });
    expect(down.code).toBe(8);
    expect(down.json().checks.find((c: { name: string }) => c.name === 'reachability')).toMatchObject({
      status: 'fail',
      fix: expect.stringContaining('CAIRN_URL'),
    });

    const plainHttp = await cairn(['doctor', '--json'], {
      CAIRN_URL: 'http://cairn.invalid',
      CAIRN_TOKEN: member.token,
    });
    expect(plainHttp.json().checks.find((c: { name: string }) => c.name === 'tls')).toMatchObject({
      status: 'warn',
      fix: expect.stringContaining('TLS'),
    });

    const nothing = await cairn(['doctor']);
    expect(nothing.code).toBe(8);
    expect(nothing.stdout).toMatch(/cairn login --url/);
  });

  describe('connect', () => {
    const env = () => ({ CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token });
    const schema = (name: string) => JSON.parse(readFileSync(join(__dirname, 'fixtures/client-schemas', name), 'utf8'));
    const validate = (schemaFile: string, document: unknown) => {
      const ajv = new Ajv({ strict: false, allErrors: true });
      const check = ajv.compile(schema(schemaFile));
      expect({ valid: check(document), errors: check.errors ?? null }).toEqual({ valid: true, errors: null });
    };

    it('claude-code --scope project merges into .mcp.json, keeps the other servers, references CAIRN_TOKEN; disconnect removes only it', async () => {
      const file = join(home.cwd, '.mcp.json');
      writeFileSync(
        file,
        JSON.stringify({ mcpServers: { other: { command: 'npx', args: ['-y', 'other'] } } }, null, 2),
      );
      const connect = await cairn(['connect', 'claude-code', '--scope', 'project', '--json'], env());
      expect(connect.code).toBe(0);
      expect(connect.json()).toMatchObject({ action: 'added', file, mcpUrl: world.mcpUrl, mcpUrlSource: 'server' });
      const written = readFileSync(file, 'utf8');
      expect(written).not.toContain(member.token);
      const document = JSON.parse(written);
      expect(document.mcpServers.other).toEqual({ command: 'npx', args: ['-y', 'other'] });
      expect(document.mcpServers.cairn).toEqual({
        type: 'http',
        url: world.mcpUrl,
        headers: { Authorization: 'Bearer ${CAIRN_TOKEN}' },
      });
      validate('claude-code-mcp.schema.json', document);

      const again = await cairn(['connect', 'claude-code', '--scope', 'project', '--json'], env());
      expect(again.json().action).toBe('unchanged');
      const disconnect = await cairn(['disconnect', 'claude-code', '--scope', 'project', '--json'], env());
      expect(disconnect.json()).toMatchObject({ removed: true });
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
        mcpServers: { other: { command: 'npx', args: ['-y', 'other'] } },
      });
      expect((await cairn(['disconnect', 'claude-code', '--scope', 'project', '--json'], env())).json().removed).toBe(
        false,
      );
    });

    it('claude-code --scope user edits ~/.claude.json in place, keeping its other settings and mode', async () => {
      const file = join(home.dir, '.claude.json');
      writeFileSync(file, JSON.stringify({ numStartups: 3, projects: { '/x': { allowedTools: [] } } }), {
        mode: 0o600,
      });
      expect((await cairn(['connect', 'claude-code'], env())).code).toBe(0);
      const document = JSON.parse(readFileSync(file, 'utf8'));
      expect(document).toMatchObject({ numStartups: 3, projects: { '/x': { allowedTools: [] } } });
      expect(document.mcpServers.cairn.url).toBe(world.mcpUrl);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    });

    it('vscode keeps the comments of a JSONC mcp.json and its inputs; cursor uses ${env:…}', async () => {
      const vscode = join(home.cwd, '.vscode', 'mcp.json');
      mkdirSync(join(home.cwd, '.vscode'));
      writeFileSync(
        vscode,
        '{\n  // our servers\n  "servers": {\n    "db": { "type": "stdio", "command": "db-mcp" } // keep\n  },\n  "inputs": []\n}\n',
      );
      expect((await cairn(['connect', 'vscode', '--scope', 'project'], env())).code).toBe(0);
      const text = readFileSync(vscode, 'utf8');
      expect(text).toContain('// our servers');
      expect(text).toContain('// keep');
      expect(text).not.toContain(member.token);
      const { parse } = await import('jsonc-parser');
      const document = parse(text);
      expect(document.servers.db).toEqual({ type: 'stdio', command: 'db-mcp' });
      expect(document.servers.cairn).toEqual({
        type: 'http',
        url: world.mcpUrl,
        headers: { Authorization: 'Bearer ${env:CAIRN_TOKEN}' },
      });
      validate('vscode-mcp.schema.json', document);

      expect((await cairn(['connect', 'cursor', '--scope', 'project'], env())).code).toBe(0);
      const cursor = JSON.parse(readFileSync(join(home.cwd, '.cursor', 'mcp.json'), 'utf8'));
      expect(cursor.mcpServers.cairn).toEqual({
        url: world.mcpUrl,
        headers: { Authorization: 'Bearer ${env:CAIRN_TOKEN}' },
      });
      validate('cursor-mcp.schema.json', cursor);
    });

    it('codex writes [mcp_servers.cairn] with bearer_token_env_var into config.toml, keeping comments, and the result passes the schema Codex publishes', async () => {
      const codexHome = join(home.dir, 'codex-home');
      mkdirSync(codexHome);
      const file = join(codexHome, 'config.toml');
      writeFileSync(
        file,
        '# my settings\nmodel = "o3" # favourite\n\n[mcp_servers.docs]\ncommand = "npx"\nargs = ["-y", "docs-mcp"]\n',
      );
      const connect = await cairn(['connect', 'codex', '--json'], { ...env(), CODEX_HOME: codexHome });
      expect(connect.code).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain('# my settings');
      expect(text).toContain('model = "o3" # favourite');
      expect(text).toContain('[mcp_servers.cairn]');
      expect(text).not.toContain(member.token);
      const document = parseToml(text) as Record<string, any>;
      expect(document.mcp_servers.cairn).toEqual({ url: world.mcpUrl, bearer_token_env_var: 'CAIRN_TOKEN' });
      expect(document.mcp_servers.docs).toEqual({ command: 'npx', args: ['-y', 'docs-mcp'] });
      validate('codex-config.schema.json', document);

      const disconnect = await cairn(['disconnect', 'codex', '--json'], { ...env(), CODEX_HOME: codexHome });
      expect(disconnect.json().removed).toBe(true);
      const after = readFileSync(file, 'utf8');
      expect(after).toContain('# my settings');
      expect(parseToml(after)).toEqual({
        model: 'o3',
        mcp_servers: { docs: { command: 'npx', args: ['-y', 'docs-mcp'] } },
      });
    });

    it('--print writes nothing; a malformed file is refused untouched; unknown clients and scopes are usage errors', async () => {
      const print = await cairn(['connect', 'codex', '--print'], env());
      expect(print.code).toBe(0);
      expect(print.stdout).toContain('bearer_token_env_var = "CAIRN_TOKEN"');
      expect(existsSync(join(home.dir, '.codex'))).toBe(false);

      const file = join(home.cwd, '.mcp.json');
      writeFileSync(file, '{ "mcpServers": { ');
      const broken = await cairn(['connect', 'claude-code', '--scope', 'project'], env());
      expect(broken.code).toBe(6);
      expect(broken.stderr).toMatch(/not valid JSON/);
      expect(readFileSync(file, 'utf8')).toBe('{ "mcpServers": { ');

      expect((await cairn(['connect', 'zed'], env())).code).toBe(2);
      expect((await cairn(['connect', 'cursor', '--scope', 'global'], env())).code).toBe(2);
      expect((await cairn(['connect', 'cursor', '--name', 'no spaces'], env())).code).toBe(2);
    });

    it('honours CAIRN_MCP_URL over what the server says', async () => {
      const explicit = await cairn(['connect', 'cursor', '--print', '--json'], {
        ...env(),
        CAIRN_MCP_URL: 'https://mcp.example.com/mcp',
      });
      expect(explicit.json()).toMatchObject({ mcpUrl: 'https://mcp.example.com/mcp', mcpUrlSource: 'env' });
    });
  });
});
