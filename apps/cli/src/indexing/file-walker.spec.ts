import { join } from 'node:path';
import { collectFiles } from '../commands/kb/file-collector';
import { type Walked, walkFiles, type WalkOptions } from './file-walker';
import { tempTrees } from './test/temp-tree';

async function walk(root: string, options: Partial<WalkOptions> = {}, paths = ['.']): Promise<Walked[]> {
  const items: Walked[] = [];
  const walker = walkFiles(paths, { cwd: root, maxFileBytes: 1000, ignoreFiles: ['.gitignore'], ...options });
  for await (const item of walker) items.push(item);
  return items;
}

const kept = (items: readonly Walked[]) => items.flatMap((item) => (item.kind === 'file' ? [item.source] : []));
const skipped = (items: readonly Walked[]) =>
  Object.fromEntries(items.flatMap((item) => (item.kind === 'file' ? [] : [[item.source, item.reason]])));

describe('walkFiles (the walk shared by cairn kb index and cairn index)', () => {
  const trees = tempTrees();
  const tree = trees.make;
  afterAll(() => trees.removeAll());

  it('follows .gitignore files from the root down, a deeper one overriding (`!`), and never enters .git', async () => {
    const root = tree({
      '.gitignore': '*.log\nsecret/\n',
      'a.ts': 'a',
      'debug.log': 'x',
      'secret/key.ts': 'k',
      'src/.gitignore': '!keep.log\n/local.ts\n',
      'src/keep.log': 'kept by the deeper file',
      'src/other.log': 'x',
      'src/local.ts': 'x',
      'src/deep/local.ts': 'anchored patterns apply to their own directory only',
      '.git/config': '[core]',
      '.git/HEAD': 'ref: refs/heads/main',
    });
    const items = await walk(root);
    expect(kept(items)).toEqual(['.gitignore', 'a.ts', 'src/.gitignore', 'src/deep/local.ts', 'src/keep.log']);
    expect(skipped(items)).toEqual({
      'debug.log': 'ignored',
      secret: 'ignored',
      'src/other.log': 'ignored',
      'src/local.ts': 'ignored',
    });
    expect(items.find((item) => item.source === 'secret')?.kind).toBe('skipped-directory');
  });

  it('reads every ignore file named, a later one after an earlier one in the same directory', async () => {
    const root = tree({
      '.gitignore': 'generated/\n*.snap\n',
      '.cairnignore': 'fixtures/\n!generated/\n',
      'generated/api.ts': 'brought back by .cairnignore',
      'fixtures/big.json': '{}',
      'ui.snap': 'x',
      'lib/.cairnignore': '*.sql\n',
      'lib/schema.sql': 'x',
      'lib/index.ts': 'x',
    });
    const items = await walk(root, { ignoreFiles: ['.gitignore', '.cairnignore'] });
    expect(kept(items)).toEqual(['.cairnignore', '.gitignore', 'generated/api.ts', 'lib/.cairnignore', 'lib/index.ts']);
    expect(skipped(items)).toEqual({ fixtures: 'ignored', 'ui.snap': 'ignored', 'lib/schema.sql': 'ignored' });
  });

  it('skips directories by name wherever they are, unless an ignore file re-includes one', async () => {
    const root = tree({
      'node_modules/lodash/index.js': 'x',
      'packages/app/node_modules/react/index.js': 'x',
      'packages/app/build/out.js': 'x',
      'tools/build/make.ts': 'the project’s own build scripts',
      'tools/.gitignore': '!build/\n',
      'packages/app/main.ts': 'x',
    });
    const items = await walk(root, { skipDirectories: new Set(['node_modules', 'build']) });
    expect(kept(items)).toEqual(['packages/app/main.ts', 'tools/.gitignore', 'tools/build/make.ts']);
    expect(skipped(items)).toEqual({
      node_modules: 'vendored',
      'packages/app/build': 'vendored',
      'packages/app/node_modules': 'vendored',
    });
  });

  it('skips empty files and files over the cap on their size; names sources relative to cwd, POSIX style', async () => {
    const root = tree({ 'docs/empty.md': '', 'docs/big.md': 'y'.repeat(1001), 'docs/ok.md': 'y'.repeat(1000) });
    const items = await walk(root, { cwd: root }, ['docs']);
    expect(kept(items)).toEqual(['docs/ok.md']);
    expect(skipped(items)).toEqual({ 'docs/empty.md': 'empty', 'docs/big.md': 'too-large' });
    expect(skipped(await walk(root, {}, ['missing']))).toEqual({ missing: 'unreadable' });
  });

  it('applies the ignore files between `rulesFrom` and a subdirectory walked', async () => {
    const root = tree({ '.gitignore': 'pkg/gen/\n*.tmp\n', 'pkg/a.ts': 'x', 'pkg/b.tmp': 'x', 'pkg/gen/c.ts': 'x' });
    const items = await walk(join(root, 'pkg'), { rulesFrom: root });
    expect(kept(items)).toEqual(['a.ts']);
    expect(skipped(items)).toEqual({ 'b.tmp': 'ignored', gen: 'ignored' });
  });

  it('cairn kb index still takes .gitignore only, skips binaries, and takes a file named explicitly', async () => {
    const root = tree({
      '.gitignore': '*.log\n',
      '.cairnignore': 'notes.md\n',
      'notes.md': 'kb ignores .cairnignore',
      'debug.log': 'x',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    });
    const items = [];
    for await (const item of collectFiles(['.', 'debug.log'], { cwd: root, maxFileBytes: 1000 })) items.push(item);
    expect(items.map((item) => [item.source, item.kind === 'file' ? 'file' : item.reason])).toEqual([
      ['.cairnignore', 'file'],
      ['.gitignore', 'file'],
      ['debug.log', 'ignored'],
      ['logo.png', 'binary'],
      ['notes.md', 'file'],
      ['debug.log', 'file'],
    ]);
  });
});
