import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import {
  createTestDatabase,
  expectCommittedFile,
  type TestDatabase,
  testConfig,
  testRedisUrl,
  UPDATE_SNAPSHOTS_ENV,
} from '@cairn/testing';
import { publicMethodsOf, repositoryFiles } from './repository-files';
import { SqlSnapshotGenerator } from './sql-snapshot-generator';

/**
 * Every statement a repository sends, committed as libs/<lib>/sql/<file>.repository.sql and
 * compared here, so every SQL change shows in review as a diff of those files (`npm run
 * snapshots` rewrites them). Against a real migrated database: see SqlSnapshotGenerator.
 */
const ROOT = join(__dirname, '..', '..');
const FILES = repositoryFiles(ROOT);
/** Files with a repository class: those holding only functions (withAdvisoryLock) show under their callers. */
const WITH_CLASSES = FILES.filter((file) => publicMethodsOf(ROOT, file.path).length > 0);

describe('repository SQL snapshots', () => {
  let database: TestDatabase;
  let generator: SqlSnapshotGenerator;
  let snapshots: Map<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    generator = await SqlSnapshotGenerator.start(testConfig(database.url, testRedisUrl()));
    snapshots = await generator.generate();
    // For whoever writes examples: which of them failed part-way (rows they name missing, …).
    if (process.env.SQL_SNAPSHOT_DEBUG === '1') console.log(generator.failures);
  }, 300_000);

  afterAll(async () => {
    await generator?.close();
    await database?.drop();
  });

  it.each(WITH_CLASSES.map((file) => [file.snapshot, file]))('renders %s as committed', (_, file) => {
    expectCommittedFile(join(ROOT, file.snapshot), snapshots.get(file.snapshot) as string);
  });

  it('sends at least one statement for every declared example', () => {
    expect(generator.silent).toEqual([]);
  });

  it('keeps no snapshot of a repository file that is gone', () => {
    const generated = new Set(WITH_CLASSES.map((file) => file.snapshot));
    const committed = readdirSync(join(ROOT, 'libs')).flatMap((library) => {
      const folder = join(ROOT, 'libs', library, 'sql');
      if (!existsSync(folder)) return [];
      return readdirSync(folder)
        .filter((name) => name.endsWith('.repository.sql'))
        .map((name) => `libs/${library}/sql/${name}`);
    });
    const stale = committed.filter((path) => !generated.has(path));
    if (process.env[UPDATE_SNAPSHOTS_ENV] === '1') stale.forEach((path) => rmSync(join(ROOT, path)));
    else expect(stale).toEqual([]);
  });
});

describe('repository methods and their snapshots', () => {
  it('leaves no public repository method without @SqlSnapshot examples or a @NoSqlSnapshot reason', () => {
    const missing = FILES.flatMap((file) => publicMethodsOf(ROOT, file.path))
      .filter((method) => method.declares === null)
      .map((method) => `${method.file}:${method.line} ${method.owner}.${method.method}`);
    expect(missing).toEqual([]);
  });

  it('finds a method that declares nothing, and leaves private ones and accessors alone', () => {
    const source = [
      'export class WidgetsRepository {',
      "  @SqlSnapshot({ params: ['x'] }) find(id: string) { return id; }",
      "  @NoSqlSnapshot('returns a value search renders') corpus() { return 1; }",
      '  count() { return 2; }',
      '  private helper() { return 3; }',
      '  get latest() { return 4; }',
      '}',
    ].join('\n');
    expect(publicMethodsOf(ROOT, 'libs/example/src/widgets.repository.ts', source)).toEqual([
      expect.objectContaining({ owner: 'WidgetsRepository', method: 'find', declares: 'SqlSnapshot' }),
      expect.objectContaining({ method: 'corpus', declares: 'NoSqlSnapshot' }),
      expect.objectContaining({ method: 'count', line: 4, declares: null }),
    ]);
  });
});
