import { createHash } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCairnClient } from '../../api/cairn-client';
import { CliError, ExitCode } from '../../cli-error';
import { tempTrees } from '../../indexing/test/temp-tree';
import { Output } from '../../output/output';
import { type CodeIndexRunOptions, renderSummary, runCodeIndex } from './code-index-run';
import { type Call, fakeCodeIndexServer } from './test/fake-code-index-server';

describe('runCodeIndex against the code-index contract', () => {
  const trees = tempTrees();
  afterAll(() => trees.removeAll());
  const output = new Output({ stdout: new PassThrough(), stderr: new PassThrough() }, { json: false, env: {} });
  const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

  function setUp() {
    const root = trees.make({
      '.gitignore': 'local.ts\n',
      'src/a.ts': 'export const a = 1;\n',
      'src/b.ts': 'export const b = 2;\n',
      'src/c.py': 'def c():\n    return 3\n',
      'src/keys.ts': 'const key = "AKIAIOSFODNN7EXAMPLE";\n',
      'local.ts': 'ignored',
      'node_modules/x/index.js': 'vendored',
    });
    const server = fakeCodeIndexServer();
    const api = createCairnClient({ baseUrl: new URL('http://cairn.test'), token: 't', fetch: server.fetch });
    const options: CodeIndexRunOptions = {
      root,
      project: 'web',
      branch: 'main',
      commit: 'abc1234',
      maxFileBytes: 1000,
      batchLimits: { maxFiles: 2, maxBytes: 1000 },
      dryRun: false,
    };
    return {
      root,
      server,
      run: (more: Partial<CodeIndexRunOptions> = {}) => runCodeIndex(api, output, { ...options, ...more }),
    };
  }
  const methods = (calls: readonly Call[]) => calls.map((call) => `${call.method} ${call.path}`);

  it('uploads every kept file in batches within the limits, a few at a time, then records the run', async () => {
    const { root, server, run } = setUp();
    const summary = await run();
    expect(summary).toMatchObject({
      scanned: 5,
      unchanged: 0,
      uploaded: 5,
      removed: 0,
      skipped: { ignored: 1, vendored: 1 },
      symbols: 10,
      secretsRedacted: 1,
      run: { files: 5, symbols: 10, cardVersion: 1 },
    });
    expect([...server.files.keys()].sort()).toEqual(['.gitignore', 'src/a.ts', 'src/b.ts', 'src/c.py', 'src/keys.ts']);
    expect(server.files.get('src/a.ts')?.hash).toBe(sha256('export const a = 1;\n'));
    const puts = server.calls.filter((call) => call.method === 'PUT');
    // Batches of at most two (the limits given), finishing in any order with three in flight.
    expect(puts.map((call) => call.body?.files.length).sort()).toEqual([1, 2, 2]);
    expect(puts.every((call) => call.body?.branch === 'main' && call.body.commit === 'abc1234')).toBe(true);
    expect(server.state.mostInFlight).toBeLessThanOrEqual(3);
    expect(server.calls.at(-1)).toMatchObject({
      path: '/runs',
      body: { branch: 'main', commit: 'abc1234', scanned: 5, uploaded: 5, removed: 0, skipped: 2 },
    });
    expect(renderSummary(summary)).toContain('5 uploaded');
    expect(root).toBeTruthy();
  });

  it('an unchanged tree sends no upload and no removal; a change and a deletion send exactly those', async () => {
    const { root, server, run } = setUp();
    await run();
    server.calls.length = 0;
    const again = await run();
    expect(again).toMatchObject({ scanned: 5, unchanged: 5, uploaded: 0, removed: 0, symbols: 0 });
    // Five files on pages of two: the client follows `next` to the end.
    expect(methods(server.calls)).toEqual(['GET /manifest', 'GET /manifest', 'GET /manifest', 'POST /runs']);
    expect(server.calls.slice(1, 3).map((call) => call.query.get('after'))).toEqual(['src/a.ts', 'src/c.py']);

    writeFileSync(join(root, 'src/a.ts'), 'export const a = 10;\n');
    rmSync(join(root, 'src/b.ts'));
    server.calls.length = 0;
    const changed = await run();
    expect(changed).toMatchObject({ scanned: 4, unchanged: 3, uploaded: 1, removed: 1 });
    expect(server.calls.find((call) => call.method === 'PUT')?.body?.files).toEqual([
      { path: 'src/a.ts', content: 'export const a = 10;\n' },
    ]);
    expect(server.calls.find((call) => call.path === '/files/remove')?.body).toEqual({
      branch: 'main',
      paths: ['src/b.ts'],
    });
  });

  it('--dry-run reads the manifest and sends nothing', async () => {
    const { root, server, run } = setUp();
    await run();
    writeFileSync(join(root, 'src/new.ts'), 'export {};\n');
    rmSync(join(root, 'src/c.py'));
    server.calls.length = 0;
    const dry = await run({ dryRun: true });
    expect(dry).toMatchObject({
      dryRun: true,
      uploaded: 1,
      removed: 1,
      wouldUpload: ['src/new.ts'],
      wouldRemove: ['src/c.py'],
      run: null,
    });
    expect(new Set(methods(server.calls))).toEqual(new Set(['GET /manifest']));
    expect(server.files.has('src/c.py')).toBe(true);
  });

  it('a refused batch stops the run with the server’s error and its exit code, naming the batch; no run is recorded', async () => {
    const { server, run } = setUp();
    server.state.refuse = 'src/b.ts';
    const failure = await run().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(CliError);
    expect((failure as CliError).exitCode).toBe(ExitCode.rejected);
    expect((failure as CliError).message).toMatch(
      /^Uploading batch 2 of 3 \(src\/b\.ts … src\/c\.py, 2 files\) failed: Request body is too large$/,
    );
    expect(methods(server.calls)).not.toContain('POST /runs');
  });
});
