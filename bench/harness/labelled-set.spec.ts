import { evidencePath, labelledSet, parseGitLog, questionOf, splitOf } from './labelled-set';

/** What `git log --no-merges --name-only --format=%x00%H%x09%s` prints, five commits of it. */
const LOG = [
  '\0aaaa0001\tcode index: scores as float8 (numeric came back as text)\n\nlibs/code-index/src/code-symbols.repository.ts\nlibs/code-index/sql/code-symbols.repository.sql\n',
  '\0aaaa0002\tlint\n\nlibs/common/src/text.ts\n',
  '\0aaaa0003\tRevert "memory: topic view tools in the maintenance toolset"\n\nlibs/memory/src/topics.ts\n',
  '\0aaaa0004\tmemory: topic extraction from tags, keywords and hashtags\n\nlibs/memory/src/topics.ts\nlibs/memory/src/gone.ts\n',
  '\0aaaa0005\tdocs: every route of the api in one table\n\n' +
    ['a', 'b', 'c', 'd', 'e'].map((name) => `docs/${name}.md`).join('\n') +
    '\n',
  '\0aaaa0006\tcairn exec: a command that never started prints no result\n\napps/cli/src/exec.ts\n',
].join('');

const EXISTING = new Set([
  'libs/code-index/src/code-symbols.repository.ts',
  'libs/code-index/sql/code-symbols.repository.sql',
  'libs/common/src/text.ts',
  'libs/memory/src/topics.ts',
  'apps/cli/src/exec.ts',
  ...['a', 'b', 'c', 'd', 'e'].map((name) => `docs/${name}.md`),
]);

describe('the labelled set from git history', () => {
  it('parses hash, subject and changed files of each commit', () => {
    const commits = parseGitLog(LOG);
    expect(commits).toHaveLength(6);
    expect(commits[0]).toEqual({
      hash: 'aaaa0001',
      subject: 'code index: scores as float8 (numeric came back as text)',
      files: ['libs/code-index/src/code-symbols.repository.ts', 'libs/code-index/sql/code-symbols.repository.sql'],
    });
    expect(commits[4]?.files).toHaveLength(5);
  });

  it('makes a question of a real sentence: scope prefix stripped, short, Merge and Revert subjects refused', () => {
    expect(questionOf('code index: scores as float8 (numeric came back as text)')).toBe(
      'scores as float8 (numeric came back as text)',
    );
    expect(questionOf('cairn index [path]: the client of the code index')).toBe('the client of the code index');
    expect(questionOf('lint')).toBeUndefined();
    expect(questionOf('memory: two words')).toBeUndefined();
    expect(questionOf('Merge branch main into topic work')).toBeUndefined();
    expect(questionOf('Revert "a perfectly good sentence here"')).toBeUndefined();
    expect(questionOf(`docs: ${'word '.repeat(60)}`)).toBeUndefined();
    // No scope: the subject is the question.
    expect(questionOf('Use one pool for every tenant')).toBe('Use one pool for every tenant');
  });

  it('keeps commits of 1-4 files that all still exist, most recent first, up to the limit', () => {
    const set = labelledSet(parseGitLog(LOG), EXISTING);
    // 0002 too short, 0003 a revert, 0004 touched a deleted file, 0005 five files.
    expect(set.map((item) => item.commit)).toEqual(['aaaa0001', 'aaaa0006']);
    expect(set[1]).toEqual({
      commit: 'aaaa0006',
      question: 'a command that never started prints no result',
      files: ['apps/cli/src/exec.ts'],
    });
    expect(labelledSet(parseGitLog(LOG), EXISTING, 1)).toHaveLength(1);
  });

  it('splits by the parity of the hash and reads the path of an evidence ref', () => {
    expect(splitOf('aaaa0002')).toBe('fit');
    expect(splitOf('aaaa000f')).toBe('heldOut');
    expect(evidencePath('libs/code-index/src/code-chunker.ts:12-40')).toBe('libs/code-index/src/code-chunker.ts');
    expect(evidencePath('docs/guide.md')).toBe('docs/guide.md');
  });
});
