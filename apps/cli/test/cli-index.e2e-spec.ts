import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CliWorld, type Home, makeHome, runCairn, startCliWorld, tenantWithToken } from './cli-harness';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

/** A small repository: what `cairn index` keeps, and one file of each kind it leaves out. */
const FIXTURE: Record<string, string | Buffer> = {
  '.gitignore': 'local.settings.ts\n*.log\n',
  '.cairnignore': 'fixtures/\n',
  'src/main.ts':
    "import { greet } from './greet';\n\nexport function main(): void {\n  console.log(greet('world'));\n}\n",
  'src/greet.ts': 'export function greet(name: string): string {\n  return `hello, ${name}`;\n}\n',
  'app/models.py': 'class Invoice:\n    def total(self) -> int:\n        return 0\n',
  'local.settings.ts': 'export const local = true;\n',
  'server.log': 'started\n',
  'fixtures/recorded.json': '{"recorded": true}\n',
  'assets/logo.png': PNG,
  'node_modules/left-pad/index.js': 'module.exports = (s) => s;\n',
};
const KEPT = ['.cairnignore', '.gitignore', 'app/models.py', 'src/greet.ts', 'src/main.ts'];

/**
 * `cairn index` run as the built command against a real api: the server's manifest must list
 * exactly the files kept, with the hashes of their content; a re-run of an unchanged tree sends
 * nothing; a change and a deletion send exactly those; --dry-run sends nothing.
 */
describe('cairn index (the code index, docs/code-index.md)', () => {
  let world: CliWorld;
  let home: Home;
  let member: Awaited<ReturnType<typeof tenantWithToken>>;

  beforeAll(async () => {
    world = await startCliWorld();
    member = await tenantWithToken(world);
  });
  afterAll(() => world.close());
  beforeEach(() => {
    home = makeHome();
    for (const [path, content] of Object.entries(FIXTURE)) {
      mkdirSync(dirname(join(home.cwd, path)), { recursive: true });
      writeFileSync(join(home.cwd, path), content);
    }
    git('init', '--quiet', '--initial-branch=main');
    git('add', '--all');
    git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'fixture');
  });
  afterEach(() => home.remove());

  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: home.cwd, env: home.env, encoding: 'utf8' }).trim();
  const cairn = (args: string[]) =>
    runCairn(args, { env: { ...home.env, CAIRN_URL: world.apiUrl, CAIRN_TOKEN: member.token }, cwd: home.cwd });
  const sha256 = (path: string) =>
    createHash('sha256')
      .update(readFileSync(join(home.cwd, path)))
      .digest('hex');
  const manifest = async (branch = 'main') => {
    const answer = await world.admin
      .as(member.token)
      .get(`/v1/projects/${member.projects[0]}/code/manifest?branch=${encodeURIComponent(branch)}`);
    expect(answer.status).toBe(200);
    return answer.body as { commit: string | null; files: { path: string; hash: string; size: number }[] };
  };
  const expectManifestOf = async (paths: readonly string[]) => {
    const files = (await manifest()).files;
    expect(files.map((file) => file.path)).toEqual([...paths].sort());
    for (const file of files) expect(file.hash).toBe(sha256(file.path));
  };

  it('indexes the kept files only; an unchanged re-run sends nothing; a change and a deletion send exactly those', async () => {
    const first = await cairn(['index', '--json']);
    expect(first.code).toBe(0);
    // Not a terminal: no progress line, nothing on stderr.
    expect(first.stderr).toBe('');
    expect(first.json()).toMatchObject({
      project: member.projects[0],
      branch: 'main',
      commit: git('rev-parse', 'HEAD'),
      scanned: 5,
      unchanged: 0,
      uploaded: 5,
      removed: 0,
      // local.settings.ts and server.log by .gitignore, fixtures/ by .cairnignore (a directory counts once).
      skipped: { ignored: 3, vendored: 1, binary: 1, generated: 0, tooLarge: 0, empty: 0, notUtf8: 0 },
    });
    expect(first.json().symbols).toBeGreaterThan(0);
    await expectManifestOf(KEPT);
    expect((await manifest()).commit).toBe(git('rev-parse', 'HEAD'));

    const again = await cairn(['index', '--json']);
    expect(again.json()).toMatchObject({ scanned: 5, unchanged: 5, uploaded: 0, removed: 0, symbols: 0 });

    writeFileSync(join(home.cwd, 'src/greet.ts'), 'export const greet = (name: string) => `hi, ${name}`;\n');
    rmSync(join(home.cwd, 'app/models.py'));
    const changed = await cairn(['index', '--json']);
    expect(changed.json()).toMatchObject({ scanned: 4, unchanged: 3, uploaded: 1, removed: 1 });
    await expectManifestOf(KEPT.filter((path) => path !== 'app/models.py'));

    const human = await cairn(['index', '--no-color']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/Scanned 4 files: 4 unchanged, 0 uploaded .*, 0 removed/);
    expect(human.stdout).toMatch(/Skipped: 3 ignored, 1 vendored directories, 1 binary/);
  });

  it('--dry-run compares with the manifest and sends nothing', async () => {
    expect((await cairn(['index'])).code).toBe(0);
    writeFileSync(join(home.cwd, 'src/new.ts'), 'export const added = 1;\n');
    rmSync(join(home.cwd, 'src/main.ts'));
    const dry = await cairn(['index', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(dry.json()).toMatchObject({
      dryRun: true,
      uploaded: 1,
      removed: 1,
      wouldUpload: ['src/new.ts'],
      wouldRemove: ['src/main.ts'],
      run: null,
    });
    const files = (await manifest()).files.map((file) => file.path);
    expect(files).toContain('src/main.ts');
    expect(files).not.toContain('src/new.ts');
  });

  it('--json prints one object: counts, skips by reason, symbols, secrets, time and the run; --branch indexes apart', async () => {
    // Earlier tests indexed `main` of the same project: a run on another branch leaves it as it is.
    const mainBefore = (await manifest('main')).files;
    const result = await cairn(['index', '.', '--branch', 'feature/login', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      project: member.projects[0],
      branch: 'feature/login',
      commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      root: realpathSync(home.cwd),
      dryRun: false,
      scanned: 5,
      unchanged: 0,
      uploaded: 5,
      removed: 0,
      bytesUploaded: expect.any(Number),
      skipped: {
        ignored: 3,
        vendored: 1,
        generated: 0,
        binary: 1,
        tooLarge: 0,
        empty: 0,
        notUtf8: 0,
        badPath: 0,
        unreadable: 0,
      },
      symbols: expect.any(Number),
      secretsRedacted: 0,
      durationMs: expect.any(Number),
      run: { files: 5, symbols: expect.any(Number), cardVersion: expect.any(Number) },
    });
    expect((await manifest('feature/login')).files).toHaveLength(5);
    expect((await manifest('main')).files).toEqual(mainBefore);
  });

  it('a project the token cannot reach stops with the mapped exit code; a path that is not a directory is a usage error', async () => {
    const missing = await cairn(['index', '--project', 'no-such-project']);
    expect(missing.code).toBe(5);
    expect(missing.stderr).toMatch(/^error:/m);
    expect((await cairn(['index', 'src/main.ts'])).code).toBe(2);
  });
});
