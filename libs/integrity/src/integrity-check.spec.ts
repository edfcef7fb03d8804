import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkIntegrity, refusesToStart, REPORTED_PATHS } from './integrity-check';
import { readIntegrityManifest, writeIntegrityManifest } from './integrity-manifest';
import { digestTree } from './file-digests';

/** A small image-like tree: dist/, node_modules/ (with a .bin link), models/ and package.json. */
function makeTree(): { base: string; manifestPath: string; roots: string[] } {
  const base = mkdtempSync(join(tmpdir(), 'cairn-integrity-'));
  for (const dir of ['dist/apps/api/src', 'node_modules/pg/lib', 'node_modules/.bin', 'models/minilm']) {
    mkdirSync(join(base, dir), { recursive: true });
  }
  writeFileSync(join(base, 'dist/apps/api/src/main.js'), 'require("./api.module");\n');
  writeFileSync(join(base, 'dist/apps/api/src/api.module.js'), 'module.exports = {};\n');
  writeFileSync(join(base, 'node_modules/pg/lib/index.js'), 'module.exports = "pg";\n');
  symlinkSync('../pg/lib/index.js', join(base, 'node_modules/.bin/pg'));
  writeFileSync(join(base, 'models/minilm/model.onnx'), randomBytes(4096));
  writeFileSync(join(base, 'package.json'), '{"name":"cairn","version":"9.9.9"}\n');
  return {
    base,
    manifestPath: join(base, 'dist/integrity.json'),
    roots: ['dist', 'node_modules', 'models', 'package.json'],
  };
}

describe('the integrity check', () => {
  let tree: ReturnType<typeof makeTree>;
  const check = (mode: 'off' | 'warn' | 'strict' = 'warn') =>
    checkIntegrity({ mode, manifestPath: tree.manifestPath, baseDir: tree.base });

  beforeEach(async () => {
    tree = makeTree();
    await writeIntegrityManifest({
      baseDir: tree.base,
      roots: tree.roots,
      manifestPath: tree.manifestPath,
      version: '9.9.9',
    });
  });
  afterEach(() => rmSync(tree.base, { recursive: true, force: true }));

  it('writes a manifest of every file and link but itself, with sha256 digests', async () => {
    const manifest = (await readIntegrityManifest(tree.manifestPath))!;
    expect(Object.keys(manifest.files)).toEqual([
      'dist/apps/api/src/api.module.js',
      'dist/apps/api/src/main.js',
      'models/minilm/model.onnx',
      'node_modules/.bin/pg',
      'node_modules/pg/lib/index.js',
      'package.json',
    ]);
    // The digest is the one sha256sum (coreutils) prints.
    const main = join(tree.base, 'dist/apps/api/src/main.js');
    expect(manifest.files['dist/apps/api/src/main.js']).toBe(
      execFileSync('sha256sum', [main], { encoding: 'utf8' }).split(' ')[0],
    );
    expect(manifest.files['node_modules/.bin/pg']).toBe('symlink:../pg/lib/index.js');
    expect(manifest).toEqual(expect.objectContaining({ format: 'cairn-integrity/1', version: '9.9.9' }));
  });

  it('finds an untouched tree intact, and strict mode lets it start', async () => {
    const report = await check('strict');
    expect(report).toEqual(
      expect.objectContaining({
        status: 'intact',
        checked: 6,
        added: { count: 0, paths: [] },
        baseline: expect.anything(),
      }),
    );
    expect(refusesToStart(report)).toBe(false);
  });

  it('reports a tampered file, a missing file, an added file and a redirected link, and strict refuses', async () => {
    appendFileSync(join(tree.base, 'dist/apps/api/src/main.js'), 'require("child_process").exec("curl evil");\n');
    unlinkSync(join(tree.base, 'models/minilm/model.onnx'));
    writeFileSync(join(tree.base, 'node_modules/pg/lib/hook.js'), 'steal();\n');
    unlinkSync(join(tree.base, 'node_modules/.bin/pg'));
    symlinkSync('/tmp/elsewhere.js', join(tree.base, 'node_modules/.bin/pg'));
    const report = await check('strict');
    expect(report.status).toBe('tampered');
    expect(report.changed).toEqual({ count: 2, paths: ['dist/apps/api/src/main.js', 'node_modules/.bin/pg'] });
    expect(report.missing).toEqual({ count: 1, paths: ['models/minilm/model.onnx'] });
    expect(report.added).toEqual({ count: 1, paths: ['node_modules/pg/lib/hook.js'] });
    expect(report.detail).toMatch(/^2 changed, 1 added, 1 missing against the baseline of .* \(version 9\.9\.9\)/);
    expect(refusesToStart(report)).toBe(true);
    // warn reports the same and does not refuse.
    const warned = await check('warn');
    expect(warned.changed.count).toBe(2);
    expect(refusesToStart(warned)).toBe(false);
  });

  it('counts every difference but names only the first paths of each kind', async () => {
    for (let i = 0; i < 25; i++) writeFileSync(join(tree.base, `dist/extra-${String(i).padStart(2, '0')}.js`), `${i}`);
    const report = await check();
    expect(report.added.count).toBe(25);
    expect(report.added.paths).toHaveLength(REPORTED_PATHS);
    expect(report.added.paths[0]).toBe('dist/extra-00.js');
  });

  it('skips everything when off, even a tampered tree', async () => {
    writeFileSync(join(tree.base, 'package.json'), '{}');
    const report = await check('off');
    expect(report).toEqual(expect.objectContaining({ status: 'skipped', checked: 0 }));
    expect(refusesToStart(report)).toBe(false);
  });

  it('says there is no manifest, and strict refuses to start without one', async () => {
    unlinkSync(tree.manifestPath);
    const warned = await check('warn');
    expect(warned.status).toBe('no-manifest');
    expect(warned.detail).toContain('npm run integrity:manifest');
    expect(refusesToStart(warned)).toBe(false);
    expect(refusesToStart(await check('strict'))).toBe(true);
  });

  it('refuses a manifest that is not one, naming what is wrong', async () => {
    writeFileSync(tree.manifestPath, 'not json');
    expect(await check()).toEqual(
      expect.objectContaining({ status: 'unreadable', detail: expect.stringContaining('is not JSON') }),
    );
    expect(await readIntegrityManifest(join(tree.base, 'missing.json'))).toBeUndefined();
    writeFileSync(
      tree.manifestPath,
      JSON.stringify({
        format: 'cairn-integrity/1',
        algorithm: 'sha256',
        createdAt: 'x',
        roots: ['../etc'],
        files: {},
      }),
    );
    const escaping = await check('strict');
    expect(escaping.status).toBe('unreadable');
    expect(escaping.detail).toContain('roots.0 must be a relative path inside the base directory');
    expect(refusesToStart(escaping)).toBe(true);
  });

  it('hashes a large tree file by file in streamed chunks, to the digests sha256sum gives', async () => {
    const base = mkdtempSync(join(tmpdir(), 'cairn-integrity-large-'));
    try {
      for (let d = 0; d < 20; d++) {
        const dir = join(base, 'node_modules', `pkg-${d}`, 'lib');
        mkdirSync(dir, { recursive: true });
        for (let f = 0; f < 20; f++) writeFileSync(join(dir, `f${f}.js`), randomBytes(256));
      }
      // Larger than one read chunk many times over: only a streamed hash of every chunk matches.
      const big = join(base, 'node_modules', 'model.onnx');
      writeFileSync(big, randomBytes(12 << 20));
      const digests = await digestTree(base, ['node_modules']);
      expect(digests.size).toBe(20 * 20 + 1);
      const expected = execFileSync('sha256sum', [big], { encoding: 'utf8' }).split(' ')[0];
      expect(digests.get('node_modules/model.onnx')).toBe(expected);
      const sample = join(base, 'node_modules/pkg-19/lib/f19.js');
      expect(digests.get('node_modules/pkg-19/lib/f19.js')).toBe(
        execFileSync('sha256sum', [sample], { encoding: 'utf8' }).split(' ')[0],
      );
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
    // A bound on a loaded CI machine (two jest workers beside other suites), not a timing.
  }, 180_000);
});
