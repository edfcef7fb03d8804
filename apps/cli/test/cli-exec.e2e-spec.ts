import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { detectSandbox, findExecutable, type Sandbox } from '../src/commands/exec/sandbox';
import {
  CAIRN_ENTRY,
  type CliWorld,
  type Home,
  makeHome,
  runCairn,
  startCliWorld,
  tenantWithToken,
} from './cli-harness';

// Synthetic value in a real format; not a live credential.
const GITHUB_PAT = 'ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c';
const NO_SANDBOX = "no OS sandbox (bubblewrap/nsjail) found: the command runs with your user's rights";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `cairn exec`, run as the built command against a real api. Whether bubblewrap can create
 * namespaces on this machine is probed once, the same way the command does: the sandbox tests
 * that apply are named for the outcome, so a run where bwrap cannot work says so instead of
 * skipping. Every other test holds either way (inside bwrap or not).
 */
describe('cairn exec', () => {
  let world: CliWorld;
  let home: Home;
  let member: Awaited<ReturnType<typeof tenantWithToken>>;
  let sandbox: Sandbox;

  beforeAll(async () => {
    world = await startCliWorld();
    member = await tenantWithToken(world, { role: 'member', agentId: 'cli-test:exec' }, 1);
    const probeHome = makeHome();
    sandbox = await detectSandbox(probeHome.env.PATH, {
      cwd: probeHome.cwd,
      readOnlyCwd: false,
      network: false,
      hide: [probeHome.dir],
    });
    probeHome.remove();
    process.stdout.write(
      `cairn exec tests: ${sandbox.kind === 'bubblewrap' ? 'bubblewrap works here' : `no working sandbox here: ${sandbox.reason}`}\n`,
    );
  });
  afterAll(() => world.close());
  beforeEach(() => (home = makeHome()));
  afterEach(() => home.remove());

  const project = () => member.projects[0];
  const cairn = (args: string[], extra: Record<string, string> = {}) =>
    runCairn(['exec', ...args], {
      env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token, ...extra },
      cwd: home.cwd,
    });
  const documentText = async (id: string): Promise<string> => {
    const page = await world.admin
      .as(member.token)
      .get(`/v1/projects/${project()}/kb/documents/${id}/chunks?limit=200`);
    expect(page.status).toBe(200);
    return page.body.items.map((chunk: { text: string }) => chunk.text).join('\n');
  };
  const documentCount = async (): Promise<number> =>
    (await world.admin.as(member.token).get(`/v1/projects/${project()}/kb/documents`)).body.items.length;

  it('passes the exit code through (a signal as 128+n), streams both streams, strips the environment; --no-capture sends nothing', async () => {
    const before = await documentCount();
    const run = await cairn(
      ['--no-capture', '--env', 'PASSED_ON', '--', 'sh', '-c', 'echo to-stdout; echo to-stderr >&2; env; exit 7'],
      { SECRET_VALUE: 'must-not-leak', PASSED_ON: 'visible-value' },
    );
    expect(run.code).toBe(7);
    expect(run.stdout).toContain('to-stdout');
    expect(run.stderr).toContain('to-stderr');
    expect(run.stdout).toContain('PASSED_ON=visible-value');
    expect(run.stdout).toContain(`HOME=${home.dir}`);
    expect(run.stdout).not.toContain('must-not-leak');
    expect(run.stdout).not.toContain('CAIRN_TOKEN');
    expect(run.stdout).not.toContain(member.token);
    expect(await documentCount()).toBe(before);

    expect((await cairn(['--no-capture', '--', 'sh', '-c', 'kill -9 $$'])).code).toBe(137);
    const missing = await cairn(['--no-capture', '--', 'no-such-command-here']);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain('command not found');
    expect((await cairn(['--no-capture', '--env', 'A=b', '--', 'true'])).code).toBe(2);
    // Capturing needs a token: checked before the command runs, not after.
    const unconfigured = await runCairn(['exec', '--', 'touch', 'ran'], { env: home.env, cwd: home.cwd });
    expect(unconfigured.code).toBe(3);
    expect(existsSync(join(home.cwd, 'ran'))).toBe(false);
  });

  it.each(['auto', 'none'])(
    'on timeout kills the whole process group, a grandchild too, and exits 124 (--sandbox %s)',
    async (kind) => {
      // The same grandchild, given time, does write its file: so the check below can fail.
      const control = await cairn([
        '--no-capture',
        '--sandbox',
        kind,
        '--',
        'sh',
        '-c',
        '(sleep 0.2; touch finished) & wait',
      ]);
      expect(control.code).toBe(0);
      expect(existsSync(join(home.cwd, 'finished'))).toBe(true);

      const started = Date.now();
      const run = await cairn([
        '--no-capture',
        '--sandbox',
        kind,
        '--timeout',
        '1',
        '--kill-after',
        '1',
        '--',
        'sh',
        '-c',
        '(sleep 2; touch grandchild-survived) & sleep 60',
      ]);
      expect(run.code).toBe(124);
      expect(run.stderr).toContain('timed out after 1 s');
      expect(Date.now() - started).toBeLessThan(10_000);
      await sleep(2_500);
      expect(existsSync(join(home.cwd, 'grandchild-survived'))).toBe(false);
    },
  );

  it('passes its own SIGTERM on to the whole group and exits 143', async () => {
    const child = spawn(
      process.execPath,
      [
        CAIRN_ENTRY,
        'exec',
        '--no-capture',
        '--sandbox',
        'none',
        '--',
        'sh',
        '-c',
        '(sleep 2; touch survived) & echo started; sleep 60',
      ],
      { cwd: home.cwd, env: home.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (chunk: Buffer) => chunk.includes('started') && resolve()),
    );
    child.kill('SIGTERM');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(code).toBe(143);
    await sleep(2_500);
    expect(existsSync(join(home.cwd, 'survived'))).toBe(false);
  });

  it('captures into the knowledge base: head and tail under --max-output, the secret replaced before upload', async () => {
    const run = await cairn([
      '--json',
      '--max-output',
      '2000',
      '--',
      'sh',
      '-c',
      `echo "token ${GITHUB_PAT}"; seq 1 5000; echo last-line`,
    ]);
    expect(run.code).toBe(0);
    const result = run.json();
    expect(result).toMatchObject({ exitCode: 0, status: 'exit code 0', sandbox: sandbox.kind, redactedSecrets: 2 });
    expect(result.cutBytes).toBeGreaterThan(20_000);
    // With --json the command's output streams to stderr, whole: the cap is the capture's.
    expect(run.stderr).toContain('\n2500\n');
    expect(run.stderr).toContain('replaced by placeholders before upload');
    const text = await documentText(result.document);
    expect(text).toContain('$ sh -c');
    expect(text).toContain('status: exit code 0');
    expect(text).toContain(`sandbox: ${sandbox.kind}`);
    expect(text).toContain(`bytes cut by cairn exec --max-output`);
    expect(text).toContain('last-line');
    expect(text).not.toContain('\n2500\n');
    expect(text).not.toContain(GITHUB_PAT);
    // The command line carried it too: both replaced here, on this machine (cli-<n> placeholders).
    expect(text).toMatch(/\[SECRET:[^\]]*:cli-1\]/);
  });

  it('without bwrap on PATH, or with one that cannot run: warns, records "sandbox: none"; --require-sandbox refuses (125) and runs nothing', async () => {
    const bin = mkdtempSync(join(tmpdir(), 'cairn-exec-bin-'));
    try {
      for (const tool of ['sh', 'touch', 'echo']) symlinkSync(findExecutable(tool, '/usr/bin:/bin')!, join(bin, tool));
      const path = [bin, dirname(process.execPath)].join(delimiter);
      const refused = await cairn(['--require-sandbox', '--', 'touch', 'ran'], { PATH: path });
      expect(refused.code).toBe(125);
      expect(refused.stderr).toContain('no working OS sandbox, so nothing was run');
      expect(existsSync(join(home.cwd, 'ran'))).toBe(false);

      const run = await cairn(['--json', '--', 'sh', '-c', 'echo unsandboxed; touch ran'], { PATH: path });
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(NO_SANDBOX);
      expect(existsSync(join(home.cwd, 'ran'))).toBe(true);
      const text = await documentText(run.json().document);
      expect(text).toContain('sandbox: none (no bwrap (bubblewrap) or nsjail on PATH)');
      expect(text).toContain('unsandboxed');

      // A bwrap that cannot create namespaces (a container without user namespaces) is found by the probe, not assumed.
      writeFileSync(
        join(bin, 'bwrap'),
        '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      const broken = await cairn(['--no-capture', '--', 'echo', 'ran-anyway'], { PATH: path });
      expect(broken.code).toBe(0);
      expect(broken.stdout).toContain('ran-anyway');
      expect(broken.stderr).toContain(
        `${NO_SANDBOX} (bwrap is on PATH (${join(bin, 'bwrap')}) but cannot run here: bwrap: No permissions`,
      );
      expect((await cairn(['--no-capture', '--require-sandbox', '--', 'echo', 'x'], { PATH: path })).code).toBe(125);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('by default: bubblewrap when its probe runs here (home hidden, no network), else the warning and the refusal', async () => {
    writeFileSync(join(home.dir, 'private.txt'), 'home secret');
    mkdirSync(join(home.cwd, 'sub'));
    const script = 'cat "$HOME/private.txt" 2>/dev/null || echo home-hidden; cat /proc/net/dev; touch sub/w';
    const run = await cairn(['--no-capture', '--', 'sh', '-c', script]);
    if (sandbox.kind === 'bubblewrap') {
      process.stdout.write('bwrap works here: asserting isolation\n');
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain(NO_SANDBOX);
      expect(run.stdout).toContain('home-hidden');
      // A network namespace of its own: the loopback interface only.
      const interfaces = run.stdout.split('\n').flatMap((line) => /^\s*([^\s:|]+):/.exec(line)?.[1] ?? []);
      expect(interfaces).toEqual(['lo']);
      expect(existsSync(join(home.cwd, 'sub/w'))).toBe(true);
      const readOnly = await cairn(['--no-capture', '--read-only-cwd', '--', 'touch', 'ro']);
      expect(readOnly.code).not.toBe(0);
      expect(existsSync(join(home.cwd, 'ro'))).toBe(false);
      expect((await cairn(['--no-capture', '--require-sandbox', '--', 'true'])).code).toBe(0);
    } else {
      process.stdout.write(`bwrap cannot run here (${sandbox.reason}): asserting the warning path\n`);
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(NO_SANDBOX);
      const refused = await cairn(['--no-capture', '--require-sandbox', '--', 'touch', 'ran']);
      expect(refused.code).toBe(125);
      expect(existsSync(join(home.cwd, 'ran'))).toBe(false);
    }
  });
});
