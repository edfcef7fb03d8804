import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueToken } from '@cairn/testing';
import { type CliWorld, type Home, makeHome, runCairn, startCliWorld, tenantWithToken } from './cli-harness';

// Synthetic values in real formats; none is a live credential.
const GITHUB_PAT = 'ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c';

/**
 * The agent commands over the REST API, run as the built `cairn` against a real api: what they
 * write is read back from the server, bad input is refused with a usage error before anything
 * is sent, and a token's role and projects are the server's to enforce.
 */
describe('cairn recall, store, remember, forget, briefing, kb index, export, import', () => {
  let world: CliWorld;
  let home: Home;
  let member: Awaited<ReturnType<typeof tenantWithToken>>;

  beforeAll(async () => {
    // No MCP_PUBLIC_URL here: `connect` must find the gateway by probing.
    world = await startCliWorld({}, { publicUrl: false });
    member = await tenantWithToken(world);
  });
  afterAll(() => world.close());
  beforeEach(() => (home = makeHome()));
  afterEach(() => home.remove());

  const env = (token = member.token) => ({ ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: token });
  const cairn = (args: string[], options: { token?: string; input?: string; extra?: Record<string, string> } = {}) =>
    runCairn(args, { env: { ...env(options.token), ...options.extra }, cwd: home.cwd, input: options.input });
  const asMember = () => world.admin.as(member.token);

  it('store takes content from an argument or stdin, recall finds it (JSON and a table), across projects too', async () => {
    const stored = await cairn([
      'store',
      'Deploys go through the staging cluster before production',
      '-c',
      'decision',
      '-t',
      'deploy,ci',
      '-i',
      '4',
      '--json',
    ]);
    expect(stored.code).toBe(0);
    const memory = stored.json().memory;
    expect(memory).toMatchObject({
      category: 'decision',
      importance: 4,
      tags: ['deploy', 'ci'],
      project: member.projects[0],
    });
    const piped = await cairn(['store', '-', '--project', member.projects[1], '--json'], {
      input: 'The billing service is written in Go\n',
    });
    expect(piped.code).toBe(0);
    expect(piped.json().memory.project).toBe(member.projects[1]);

    const server = await asMember().get(`/v1/projects/${member.projects[0]}/memories/${memory.id}`);
    expect(server.body.content).toBe('Deploys go through the staging cluster before production');

    const recall = await cairn(['recall', 'how do deploys reach production', '--json', '--explain']);
    expect(recall.code).toBe(0);
    const results = recall.json().results;
    expect(results[0].memory.id).toBe(memory.id);
    expect(results[0].explain).toBeDefined();
    const table = await cairn(['recall', 'staging cluster', '--no-color']);
    expect(table.stdout).toContain(memory.id.slice(0, 8));
    const across = await cairn(['recall', 'billing service Go', '--all-projects', '--json']);
    expect(across.json().results.map((r: any) => r.memory.project)).toContain(member.projects[1]);
    const filtered = await cairn(['recall', 'staging', '--category', 'bug', '--json']);
    expect(filtered.json().results).toEqual([]);
  });

  it('refuses bad input with exit 2 before sending anything: empty, oversized, bad options, no content', async () => {
    expect((await cairn(['store'])).code).toBe(2);
    expect((await cairn(['store', '   '])).code).toBe(2);
    const huge = await cairn(['store', '-'], { input: 'x'.repeat(100_001) });
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/at most 100000/);
    expect((await cairn(['store', 'fact', '-i', '9'])).code).toBe(2);
    expect((await cairn(['store', 'fact', '-c', 'gossip'])).code).toBe(2);
    expect((await cairn(['recall', 'x', '--mode', 'psychic'])).code).toBe(2);
    expect((await cairn(['recall', 'x', '--limit', '0'])).code).toBe(2);
    expect((await cairn(['recall', 'x', '--since', 'yesterday-ish'])).code).toBe(2);
    const list = await asMember().get(`/v1/projects/${member.projects[0]}/memories?limit=50`);
    expect(list.body.items.map((m: any) => m.content)).not.toContain('fact');
  });

  it('leaves refusals to the server: an unknown project is 5, a reader cannot store (4), a project of another tenant is not found (5, as if it did not exist)', async () => {
    const unknown = await cairn(['store', 'a fact', '--project', 'no-such-project']);
    expect(unknown.code).toBe(5);
    const reader = await issueToken(world.admin, member.tenant, { role: 'reader', projects: [member.projects[0]] });
    const refused = await cairn(['store', 'readers cannot write'], { token: reader.token });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/error:/);
    const other = await tenantWithToken(world);
    const foreign = await cairn(['recall', 'anything', '--project', member.projects[0]], { token: other.token });
    expect(foreign.code).toBe(5);
    const badToken = await cairn(['recall', 'anything'], { token: 'cairn_st_made-up' });
    expect(badToken.code).toBe(4);
    expect(badToken.stderr).toMatch(/cairn login/);
    const down = await runCairn(['recall', 'x'], { env: { ...env(), CAIRN_URL: 'http://127.0.0.1:9' }, cwd: home.cwd });
    expect(down.code).toBe(7);
  });

  it('remember keeps a working-memory note, lists it, forget deletes it (exit 5 when there is none), briefing shows it', async () => {
    const remember = await cairn([
      'remember',
      'current_task',
      'Billing API to Fastify: tests next',
      '-i',
      '4',
      '--json',
    ]);
    expect(remember.code).toBe(0);
    expect(remember.json().entry).toMatchObject({ key: 'current_task', importance: 4 });
    const list = await cairn(['remember', '--json']);
    expect(list.json().items.map((i: any) => i.key)).toContain('current_task');
    const briefing = await cairn(['briefing']);
    expect(briefing.code).toBe(0);
    expect(briefing.stdout).toContain('current_task');
    expect(briefing.stdout).toMatch(/# Briefing/);
    expect((await cairn(['forget', 'current_task'])).code).toBe(0);
    const server = await asMember().get(`/v1/projects/${member.projects[0]}/working-memory`);
    expect(server.body.items).toEqual([]);
    expect((await cairn(['forget', 'current_task'])).code).toBe(5);
    expect((await cairn(['remember', 'bad key!', 'x'])).code).toBe(2);
  });

  it('kb index respects .gitignore, skips binaries and large files, refuses a file with a secret unless --secrets redact', async () => {
    const docs = join(home.cwd, 'docs');
    mkdirSync(join(docs, 'build'), { recursive: true });
    writeFileSync(join(home.cwd, '.gitignore'), 'docs/build/\n*.log\n');
    writeFileSync(join(docs, 'deploy.md'), '# Deploying\nRun the pipeline; staging first, then production.\n');
    writeFileSync(join(docs, 'build', 'out.md'), 'generated, ignored\n');
    writeFileSync(join(docs, 'debug.log'), 'ignored log\n');
    writeFileSync(
      join(docs, 'logo.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    );
    writeFileSync(join(docs, 'big.md'), 'y'.repeat(3000));
    writeFileSync(join(docs, 'ops.md'), `# Ops\nThe CI bot uses GITHUB_TOKEN=${GITHUB_PAT} to push tags.\n`);

    const refused = await cairn(['kb', 'index', 'docs', '--max-file-bytes', '2000', '--json']);
    expect(refused.code).toBe(6);
    const report = refused.json();
    expect(report).toMatchObject({ indexed: 1, refused: 1, skipped: { ignored: 1, binary: 1, tooLarge: 1 } });
    expect(report.files.find((f: any) => f.source === 'docs/ops.md')).toMatchObject({
      status: 'refused',
      secrets: [{ type: 'github-pat', line: 2 }],
    });
    expect(refused.stdout).not.toContain(GITHUB_PAT);
    let documents = await asMember().get(`/v1/projects/${member.projects[0]}/kb/documents`);
    expect(documents.body.items.map((d: any) => d.source).sort()).toEqual(['docs/deploy.md']);

    const redacted = await cairn(['kb', 'index', 'docs/ops.md', '--secrets', 'redact', '--json']);
    expect(redacted.code).toBe(0);
    expect(redacted.json()).toMatchObject({ indexed: 1, files: [{ source: 'docs/ops.md', redacted: true }] });
    documents = await asMember().get(`/v1/projects/${member.projects[0]}/kb/documents`);
    expect(documents.body.items.map((d: any) => d.source).sort()).toEqual(['docs/deploy.md', 'docs/ops.md']);
    const search = await asMember().post(`/v1/projects/${member.projects[0]}/kb/search`, { query: 'CI bot push tags' });
    expect(JSON.stringify(search.body)).not.toContain(GITHUB_PAT);
    expect(JSON.stringify(search.body)).toContain('[SECRET:github-pat:');

    const again = await cairn(['kb', 'index', 'docs/deploy.md', '--json']);
    expect(again.json()).toMatchObject({ indexed: 0, unchanged: 1 });
    const dry = await cairn(['kb', 'index', 'docs', '--dry-run', '--json'], { token: 'cairn_st_unused' });
    expect(dry.json()).toMatchObject({ dryRun: true, wouldIndex: 2 });
  });

  it('export streams JSON Lines to a file and import restores them into another project; a malformed line writes nothing', async () => {
    const project = member.projects[1];
    await cairn(['store', 'Export me: the queue is drained nightly', '--project', project]);
    const file = join(home.dir, 'memories.ndjson');
    const exported = await cairn(['export', '--project', project, '-o', file, '--json']);
    expect(exported.code).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    // Line 1 is the format header.
    expect(JSON.parse(lines[0])).toMatchObject({ format: 'cairn.memories', version: 1 });
    expect(exported.json().memories).toBe(lines.length - 1);
    expect(lines.map((l) => JSON.parse(l).content)).toContain('Export me: the queue is drained nightly');

    const piped = await cairn(['export', '--project', project]);
    expect(piped.stdout.trim().split('\n')).toHaveLength(lines.length);

    const target = await tenantWithToken(world);
    const imported = await cairn(['import', file, '--json'], { token: target.token });
    expect(imported.code).toBe(0);
    expect(imported.json()).toMatchObject({ project: target.projects[0], imported: lines.length - 1 });
    const restored = await world.admin.as(target.token).get(`/v1/projects/${target.projects[0]}/memories?limit=50`);
    expect(restored.body.items.map((m: any) => m.content)).toContain('Export me: the queue is drained nightly');
    const repeat = await cairn(['import', file, '--json'], { token: target.token });
    expect(repeat.json()).toMatchObject({ imported: 0 });

    const broken = await cairn(['import', '-', '--project', target.projects[1]], {
      token: target.token,
      input: `${lines[0]}\n{not json\n`,
    });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/Line 2 is not a JSON object; nothing was sent/);
    const untouched = await world.admin.as(target.token).get(`/v1/projects/${target.projects[1]}/memories?limit=50`);
    expect(untouched.body.items).toEqual([]);
    expect((await cairn(['import', join(home.dir, 'missing.ndjson')])).code).toBe(2);
  });

  it('connect finds the gateway by probing when the server has no MCP_PUBLIC_URL', async () => {
    const printed = await cairn(['connect', 'cursor', '--print', '--json']);
    expect(printed.code).toBe(0);
    expect(printed.json()).toMatchObject({ mcpUrl: world.mcpUrl, mcpUrlSource: 'probe' });
  });
});
