import { type LocalCodeFile } from './code-files';
import { batchUploads, chunked, forEachLimited, planIndex } from './index-plan';

const file = (source: string, hash = `h-${source}`, size = 10): LocalCodeFile => ({
  path: `/repo/${source}`,
  source,
  size,
  hash,
});

describe('planIndex (local tree against the server manifest)', () => {
  it('uploads new and changed files, removes what the manifest has and the tree no longer does', () => {
    const local = [file('src/b.ts'), file('src/a.ts', 'new-hash'), file('README.md'), file('src/new.py')];
    const manifest = new Map([
      ['src/a.ts', 'old-hash'],
      ['src/b.ts', 'h-src/b.ts'],
      ['README.md', 'h-README.md'],
      ['src/gone.ts', 'h-gone'],
      ['lib/renamed.ts', 'h-renamed'],
    ]);
    const plan = planIndex(local, manifest);
    expect(plan.uploads.map((f) => f.source)).toEqual(['src/a.ts', 'src/new.py']);
    expect(plan.removals).toEqual(['lib/renamed.ts', 'src/gone.ts']);
    expect(plan.unchanged).toBe(2);
  });

  it('an unchanged tree sends nothing; an empty manifest takes everything; an empty tree removes everything', () => {
    const local = [file('a.ts'), file('b.ts')];
    const same = new Map(local.map((f) => [f.source, f.hash]));
    expect(planIndex(local, same)).toEqual({ uploads: [], removals: [], unchanged: 2 });
    expect(planIndex(local, new Map()).uploads).toHaveLength(2);
    expect(planIndex([], same)).toEqual({ uploads: [], removals: ['a.ts', 'b.ts'], unchanged: 0 });
  });

  it('orders by code units, as the server orders paths (upper case before lower)', () => {
    const plan = planIndex([file('b.ts'), file('B.ts'), file('a/z.ts'), file('a.ts')], new Map());
    expect(plan.uploads.map((f) => f.source)).toEqual(['B.ts', 'a.ts', 'a/z.ts', 'b.ts']);
  });
});

describe('batchUploads', () => {
  it('closes a batch at the file count', () => {
    const files = Array.from({ length: 250 }, (_, i) => file(`f${i}`, 'h', 1));
    const batches = batchUploads(files, { maxFiles: 100, maxBytes: 1_000_000 });
    expect(batches.map((batch) => batch.length)).toEqual([100, 100, 50]);
    expect(batches.flat()).toEqual(files);
  });

  it('closes a batch before the byte budget is passed; a file larger than the budget goes alone', () => {
    const sizes = [400, 400, 300, 900, 5000, 100, 100];
    const files = sizes.map((size, i) => file(`f${i}`, 'h', size));
    const batches = batchUploads(files, { maxFiles: 100, maxBytes: 1000 });
    expect(batches.map((batch) => batch.map((f) => f.size))).toEqual([[400, 400], [300], [900], [5000], [100, 100]]);
    for (const batch of batches) {
      const bytes = batch.reduce((sum, f) => sum + f.size, 0);
      expect(batch.length === 1 || bytes <= 1000).toBe(true);
    }
  });

  it('makes no batch of nothing', () => {
    expect(batchUploads([], { maxFiles: 100, maxBytes: 1000 })).toEqual([]);
  });
});

describe('chunked and forEachLimited', () => {
  it('slices removals by 1,000', () => {
    const paths = Array.from({ length: 2001 }, (_, i) => `p${i}`);
    expect(chunked(paths, 1000).map((slice) => slice.length)).toEqual([1000, 1000, 1]);
  });

  it('keeps at most `limit` tasks in flight and runs them all', async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5 + (n % 3)));
      done.push(n);
      inFlight -= 1;
    });
    expect(most).toBe(3);
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('starts nothing after a failure, lets the ones in flight finish, and throws that failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = forEachLimited([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 2) throw new Error('batch 2 refused');
      await new Promise((resolve) => setTimeout(resolve, 10));
      finished.push(n);
    });
    await expect(run).rejects.toThrow('batch 2 refused');
    expect(started).toEqual([1, 2]);
    expect(finished).toEqual([1]);
  });
});
