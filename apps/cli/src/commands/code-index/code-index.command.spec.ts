import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { tempTrees } from '../../indexing/test/temp-tree';
import { runCli } from '../../program';
import { fakeCodeIndexServer } from './test/fake-code-index-server';

/** The command as a user runs it (argument parsing, git, output, exit codes), over the fake server. */
describe('cairn index (the command)', () => {
  const trees = tempTrees();
  afterAll(() => trees.removeAll());

  async function cairn(args: string[], server = fakeCodeIndexServer(100)) {
    const home = trees.make({});
    let stdout = '';
    let stderr = '';
    const capture = (write: (text: string) => void) => {
      const stream = new PassThrough();
      stream.setEncoding('utf8').on('data', write);
      return stream;
    };
    const code = await runCli(args, {
      env: { CAIRN_URL: 'http://cairn.test', CAIRN_TOKEN: 'cairn_st_test', CAIRN_PROJECT: 'web', NO_COLOR: '1' },
      home,
      stdin: new PassThrough(),
      stdout: capture((text) => (stdout += text)),
      stderr: capture((text) => (stderr += text)),
      fetch: server.fetch,
    });
    return { code, stdout, stderr, server, json: () => JSON.parse(stdout) as Record<string, unknown> };
  }

  const repository = (branch: string) => {
    const root = trees.make({ 'src/a.ts': 'export const a = 1;\n', 'src/b.py': 'b = 2\n', 'dist/a.js': 'built' });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    git('init', '--quiet', `--initial-branch=${branch}`);
    git('add', '--all');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'first');
    return { root, head: git('rev-parse', 'HEAD') };
  };

  it('indexes under the checked-out branch and HEAD, prints one JSON object, nothing on stderr off a terminal', async () => {
    const { root, head } = repository('trunk');
    const run = await cairn(['index', root, '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({
      project: 'web',
      branch: 'trunk',
      commit: head,
      scanned: 2,
      uploaded: 2,
      skipped: { vendored: 1 },
    });
    const put = run.server.calls.find((call) => call.method === 'PUT');
    expect(put).toMatchObject({ project: 'web', body: { branch: 'trunk', commit: head } });
    expect(put?.body?.files.map((file) => file.path)).toEqual(['src/a.ts', 'src/b.py']);
  });

  it('outside a repository: branch main, no commit; --branch, --commit and --project win', async () => {
    const root = trees.make({ 'main.go': 'package main\n' });
    const plain = await cairn(['index', root, '--json']);
    expect(plain.json()).toMatchObject({ branch: 'main', commit: null });
    expect(plain.server.calls.find((call) => call.method === 'PUT')?.body).not.toHaveProperty('commit');

    const named = await cairn(['index', root, '--branch', 'release/2.3', '--commit', 'ABCDEF1', '-p', 'api', '--json']);
    expect(named.json()).toMatchObject({ project: 'api', branch: 'release/2.3', commit: 'abcdef1' });
    expect(named.server.calls.every((call) => call.project === 'api')).toBe(true);
  });

  it('prints a summary for people; --dry-run sends nothing', async () => {
    const { root } = repository('main');
    const human = await cairn(['index', root]);
    expect(human.stdout).toContain('Scanned 2 files: 0 unchanged, 2 uploaded');
    expect(human.stdout).toContain('Skipped: 1 vendored directories.');
    const dry = await cairn(['index', root, '--dry-run']);
    expect(dry.stdout).toMatch(/^Dry run for web, branch main at [0-9a-f]{12}: nothing sent\./);
    expect(new Set(dry.server.calls.map((call) => call.method))).toEqual(new Set(['GET']));
  });

  it('a refused batch exits with the mapped code and says which batch; bad input is a usage error before any request', async () => {
    const { root } = repository('main');
    const server = fakeCodeIndexServer(100);
    server.state.refuse = 'src/a.ts';
    const refused = await cairn(['index', root], server);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain(
      'error: Uploading batch 1 of 1 (src/a.ts … src/b.py, 2 files) failed: Request body is too large',
    );
    expect(server.calls.map((call) => call.path)).not.toContain('/runs');

    for (const args of [
      [join(root, 'src/a.ts')],
      [join(root, 'missing')],
      [root, '--commit', 'not-a-sha'],
      [root, '--branch', 'has space'],
      [root, '--max-file-size', '0'],
    ]) {
      const bad = await cairn(['index', ...args]);
      expect(bad.code).toBe(2);
      expect(bad.server.calls).toEqual([]);
    }
  });
});
