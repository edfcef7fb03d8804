import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bash, README_API, readmeBlock, readmeSectionBlocks } from '../../mcp-gateway/test/readme-commands';
import { Captured, listening, LocalStack, processAlive, READY_LINE } from './launcher-harness';
import { http, REPO_ROOT } from './process-harness';

/**
 * `npm start` as a new user meets it (issue 22, 8–11 and 16), built (dist/) and run as a real
 * process with its own PostgreSQL and Redis under a temporary `.cairn/`, on ports of its own:
 * the README followed as written against it; one launcher per clone; `npm run status`; and every
 * way of stopping it, which must stop everything it started.
 */
const STARTUP_MS = 150_000;
const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));
const STOP_MS = 90_000;

const repoStartScript = (
  JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts.start;

/** An installed node older than 22.19 (Debian's own, say), to see `npm start` refuse it. */
function unsupportedNode(): string | undefined {
  for (const candidate of ['/usr/bin/node', '/usr/local/bin/node']) {
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
    const [major, minor] = version.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return candidate;
  }
  return undefined;
}

describe('npm start, as a new user runs it', () => {
  let stack: LocalStack;

  beforeAll(async () => {
    stack = await LocalStack.create();
  });
  afterAll(async () => {
    await stack?.remove();
  });

  /** Starts the stack and waits for its summary; returns the launcher and the apps it runs. */
  async function started(run: Captured) {
    await run.waitFor(READY_LINE, STARTUP_MS);
    const record = stack.record();
    expect(record?.apps.map((app) => app.name)).toEqual(['api', 'mcp-gateway', 'worker']);
    return { run, apps: record!.apps };
  }

  const oldNode = unsupportedNode();
  (oldNode ? it : it.skip)(
    `refuses ${oldNode ?? 'an older node'}, saying how to get Node 24, and starts nothing`,
    async () => {
      const run = stack.launch('old node', {}, oldNode);
      expect(await run.waitForExit(30_000)).toEqual({ code: 1, signal: null });
      expect(run.output).toMatch(
        /Node \d+\.\d+\.\d+ is not supported: Cairn needs Node 22 \(22\.19 or newer\) and Node 24 LTS/,
      );
      expect(run.output).toContain(`npm install --prefix .tools/node24 node-linux-${process.arch}@24`);
      expect(run.output).toContain(
        `export PATH="$PWD/.tools/node24/node_modules/node-linux-${process.arch}/bin:$PATH"`,
      );
      expect(existsSync(join(stack.stateDir, 'postgres'))).toBe(false);
      expect(existsSync(join(stack.stateDir, 'launcher.json'))).toBe(false);

      // `npm test` (jest's global set-up) refuses it the same way, before any service starts.
      const tests = new Captured(
        'npm test on an old node',
        oldNode!,
        ['node_modules/jest/bin/jest.js', 'tools/local/banner.spec.ts'],
        {
          cwd: REPO_ROOT,
          // CI makes the set-up log its services as they start: none may.
          env: stack.env({ CI: 'true' }),
        },
      );
      expect((await tests.waitForExit(120_000)).code).toBe(1);
      expect(tests.output).toContain('is not supported: Cairn needs Node 22 (22.19 or newer) and Node 24 LTS');
      expect(tests.output).toContain(`npm install --prefix .tools/node24 node-linux-${process.arch}@24`);
      expect(tests.output).not.toContain('[test services]');
    },
    150_000,
  );

  describe('with npm start running', () => {
    let run: Captured;
    beforeAll(async () => {
      ({ run } = await started(stack.launch('npm start')));
    }, STARTUP_MS + 10_000);

    it('serves the README as written: first tenant, user and token, then the walkthrough', async () => {
      // The admin token is read from secrets.json by a line to paste; it is never printed.
      expect(run.output).toContain(
        `export CAIRN_ADMIN_TOKEN=$(node -p 'require("${stack.stateDir}/secrets.json").adminToken')`,
      );
      expect(run.output).not.toContain(stack.adminToken());

      const local = (block: string) => block.replaceAll(README_API, `127.0.0.1:${stack.ports.api}`);
      const script = [
        'set -eo pipefail',
        local(readmeBlock('require("./.cairn/secrets.json")')),
        ...readmeSectionBlocks('### Walkthrough: what Cairn is for').map(local),
      ].join('\n');
      // From the directory holding .cairn/, as the README's "in the repository root" has it.
      const readme = await bash(script, { cwd: stack.home });
      const out = readme.stdout;
      const explain = `exit ${readme.code}\nstdout:\n${out}\nstderr:\n${readme.stderr}`;
      expect({ code: readme.code, stderr: readme.stderr }).toEqual({ code: 0, stderr: '' });
      expect(out).not.toContain('"error":');

      // Store and recall: the secret is redacted before it is stored, the decision is found.
      expect(out).toContain('The staging database is postgres://app:[SECRET:connection-string-password:');
      expect(out).not.toContain('hunter2');
      const search = out.split('\n').find((line) => line.startsWith('{"results":[{"memory":'));
      expect({ search, explain }).toMatchObject({ search: expect.any(String) });
      expect(JSON.parse(search!).results[0].memory.content).toBe('Releases are cut from the main branch every Tuesday');
      // Working memory, the knowledge base.
      expect(out).toContain('{"entry":{"key":"current-task","value":"Move the release job to GitHub Actions"');
      const kb = out.split('\n').find((line) => line.startsWith('{"results":[{"chunkId":'));
      expect(JSON.parse(kb!).results[0]).toMatchObject({ source: 'docs/deploy.md', title: 'Deploying' });
      // Sharing: nothing shared with Bob, then Alice's private note.
      const sharedWithBob = out.split('\n').filter((line) => line.startsWith('{"items":') && line.includes('"note":'));
      expect(sharedWithBob).toHaveLength(2);
      expect(JSON.parse(sharedWithBob[0]).items).toEqual([]);
      expect(JSON.parse(sharedWithBob[1]).items).toEqual([
        expect.objectContaining({
          memory: expect.objectContaining({
            content: 'The payments tests pass reliably with --runInBand',
            scope: 'private',
          }),
          unverified: true,
        }),
      ]);
      // The channel, its chain, and the briefing that brings it all to Alice's next session.
      expect(out).toContain('{"valid":true,"entries":2,');
      expect(out).toMatch(/^# Briefing: project web-app, agent:claude-code:alice$/m);
      expect(out).toContain('- current-task (5): Move the release job to GitHub Actions');
      expect(out).toContain(
        '#2 DEPENDENCY by claude-code:bob → claude-code:alice: Keep the old release job until payments has moved',
      );
      expect(out).toContain('#1 STATUS by claude-code:alice: Moving the release job to GitHub Actions');
    }, 240_000);

    it('refuses a second npm start in the same clone, which leaves the first one running', async () => {
      const first = stack.record()!;
      const second = stack.launch('second npm start');
      expect(await second.waitForExit(30_000)).toEqual({ code: 1, signal: null });
      expect(second.output).toContain(`Cairn is already running from ${stack.stateDir}/ (launcher pid ${first.pid},`);
      expect(second.output).toContain('`npm run status`');
      expect(second.output).not.toContain('migrating');
      // On other app ports it is the same clone's state: refused as well.
      const elsewhere = stack.launch('second npm start, other ports', {
        API_PORT: '0',
        MCP_PORT: '0',
        WORKER_PORT: '0',
      });
      expect((await elsewhere.waitForExit(30_000)).code).toBe(1);
      expect(elsewhere.output).toContain('Cairn is already running');

      // The first one is untouched: its launcher, its apps and its PostgreSQL and Redis.
      expect(stack.record()).toEqual(first);
      expect((await http(`http://127.0.0.1:${stack.ports.api}/readyz`)).body.status).toBe('ready');
      expect(await listening(stack.ports.postgres)).toBe(true);
      expect(await listening(stack.ports.redis)).toBe(true);
    });

    it('refuses, before starting anything, ports another stack holds', async () => {
      const other = await LocalStack.create();
      try {
        const clash = other.launch('npm start on taken ports', {
          API_PORT: String(stack.ports.api),
          MCP_PORT: String(stack.ports.mcp),
          WORKER_PORT: String(stack.ports.worker),
        });
        expect(await clash.waitForExit(30_000)).toEqual({ code: 1, signal: null });
        expect(clash.output).toContain(`port ${stack.ports.api} (API_PORT, for api) is already in use on 127.0.0.1`);
        expect(clash.output).not.toContain('PostgreSQL');
        expect(existsSync(join(other.stateDir, 'postgres'))).toBe(false);
        expect(existsSync(join(other.stateDir, 'launcher.json'))).toBe(false);
      } finally {
        await other.remove();
      }
    });

    it('npm run status shows it running and ready; npm stop stops everything it started', async () => {
      const { apps } = stack.record()!;
      const status = await stack.npm(['run', '-s', 'status']);
      expect(status.code).toBe(0);
      expect(status.output).toMatch(/^Cairn is running from .*: launcher pid \d+, since .* \(ready\)$/m);
      for (const [name, port] of [
        ['api', stack.ports.api],
        ['mcp-gateway', stack.ports.mcp],
        ['worker', stack.ports.worker],
      ] as const) {
        expect(status.output).toMatch(new RegExp(`^  ${name} +http://127\\.0\\.0\\.1:${port}\\S*  ready$`, 'm'));
      }

      const stop = await stack.npm(['stop']);
      expect(stop).toMatchObject({ code: 0, output: expect.stringContaining('[cairn] stopped') });
      expect(await stack.untilStopped(apps, STOP_MS)).toEqual([]);

      const after = await stack.npm(['run', '-s', 'status']);
      expect(after).toEqual({
        code: 3,
        output: `Cairn is not running from ${stack.stateDir}/\n  start it with \`npm start\`\n`,
      });
      expect(await run.waitForExit(1_000)).toEqual({ code: 0, signal: null });
    }, 240_000);
  });

  it.each([
    ['SIGINT to npm start', (npm: Captured) => npm.signal('SIGINT')],
    ['SIGTERM to npm start', (npm: Captured) => npm.signal('SIGTERM')],
    ['Ctrl-C on its terminal (SIGINT to the process group)', (npm: Captured) => npm.signalGroup('SIGINT')],
    ['npm start killed outright (SIGKILL to npm)', (npm: Captured) => npm.signal('SIGKILL')],
  ])(
    '%s stops everything it started',
    async (_how, stop) => {
      const { run: npm, apps } = await started(stack.launchViaNpm('npm start', repoStartScript));
      stop(npm);
      const exit = await npm.waitForExit(STOP_MS);
      expect(await stack.untilStopped(apps, STOP_MS)).toEqual([]);
      if (exit.signal !== 'SIGKILL') {
        expect(exit).toEqual({ code: 0, signal: null });
        expect(npm.output).toContain('[cairn] stopped the local PostgreSQL and Redis');
      }
    },
    300_000,
  );

  it('runs the start script that execs the launcher, so npm’s forwarded signals reach it', () => {
    expect(repoStartScript).toBe('npm run -s build && exec node dist/tools/local/start.js');
  });

  it('after kill -9 of the launcher: its apps stop, status says what is left, npm start takes over, npm stop cleans up', async () => {
    const first = await started(stack.launch('npm start'));
    first.run.signal('SIGKILL');
    await first.run.exited;
    // The apps notice their launcher is gone and stop, releasing their ports.
    const deadline = Date.now() + STOP_MS;
    while (first.apps.some((app) => processAlive(app.pid)) && Date.now() < deadline) await sleep(250);
    expect(first.apps.filter((app) => processAlive(app.pid))).toEqual([]);
    for (const port of [stack.ports.api, stack.ports.mcp, stack.ports.worker])
      expect(await listening(port)).toBe(false);

    const status = await stack.npm(['run', '-s', 'status']);
    expect(status.code).toBe(3);
    expect(status.output).toContain(`its launcher (pid ${first.run.pid}) ended without stopping`);
    expect(status.output).toContain(
      `still running: PostgreSQL (port ${stack.ports.postgres}), Redis (port ${stack.ports.redis})`,
    );

    const second = await started(stack.launch('npm start after kill -9'));
    expect(second.run.output).toContain(`(pid ${first.run.pid}) ended without stopping`);
    expect(second.run.output).toContain(`reusing PostgreSQL already running`);
    second.run.signal('SIGKILL');
    await second.run.exited;

    const stop = await stack.npm(['stop']);
    expect(stop.code).toBe(0);
    expect(stop.output).toContain('ended without stopping; stopping what it left');
    expect(stop.output).toContain(`PostgreSQL (port ${stack.ports.postgres})`);
    expect(await stack.untilStopped(second.apps, STOP_MS)).toEqual([]);
  }, 400_000);

  it('prints no summary and exits 1 when an app cannot start, stopping what it started', async () => {
    // The README run sealed a secret, so the tenant has a data key another master key cannot open.
    const run = stack.launch('npm start with the wrong master key', {
      CAIRN_MASTER_KEY: randomBytes(32).toString('base64'),
    });
    expect(await run.waitForExit(STARTUP_MS)).toEqual({ code: 1, signal: null });
    expect(run.output).toContain('refusing to start');
    expect(run.output).toMatch(
      /\[cairn\] (api|mcp-gateway|worker) exited \(code 1\) before it was asked to stop; stopping the others/,
    );
    expect(run.output).not.toContain(READY_LINE);
    expect(run.output).not.toContain('[cairn] api          http');
    expect(await stack.untilStopped([], STOP_MS)).toEqual([]);
  }, 240_000);
});
