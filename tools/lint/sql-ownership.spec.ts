import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  migratedTables,
  type Naming,
  namingsIn,
  type OwnershipMap,
  productionFiles,
  type SqlExport,
  sqlExportsOf,
  tablesOf,
} from './sql-ownership';

/**
 * One owner per table (DESIGN §11.3, docs/architecture.md "Who owns which table"): the map in
 * docs/table-owners.json covers every table the migrations create, only the owning library's
 * repositories name a table in SQL, and no library's index.ts exports SQL. Nothing is excepted.
 */
const ROOT = join(__dirname, '..', '..');
const MAP = JSON.parse(readFileSync(join(ROOT, 'docs', 'table-owners.json'), 'utf8')) as OwnershipMap;
const OWNERS = tablesOf(MAP);

/**
 * Where a table may be named outside its owner's repositories, and why: empty, and meant to stay
 * so (an entry is a decision a reviewer sees; one that no longer matches anything fails the test).
 */
const EXCEPTIONS: readonly { readonly file: string; readonly table: string; readonly why: string }[] = [];

const shown = (naming: Naming) =>
  `${naming.file}:${naming.line} names ${naming.table} (owned by libs/${naming.owner})` +
  (naming.problem === 'not-owner' ? '' : ' outside a repository');

describe('table ownership', () => {
  it('gives every table the migrations create exactly one owning library', () => {
    const migrated = migratedTables(ROOT);
    expect(Object.keys(MAP.control).sort()).toEqual([...new Set(migrated.control)].sort());
    expect(Object.keys(MAP.tenant).sort()).toEqual([...new Set(migrated.tenant)].sort());
    const libraries = new Set(readdirSync(join(ROOT, 'libs')));
    expect([...OWNERS.values()].filter((owner) => !libraries.has(owner))).toEqual([]);
  });

  it('finds each table named in SQL only in its owner’s repositories', () => {
    const namings = productionFiles(ROOT).flatMap((file) => namingsIn(ROOT, file, readFileSync(file, 'utf8'), OWNERS));
    const refused = namings.filter(
      (naming) => !EXCEPTIONS.some((exception) => exception.file === naming.file && exception.table === naming.table),
    );
    expect(refused.map(shown)).toEqual([]);
    const stale = EXCEPTIONS.filter((e) => !namings.some((n) => n.file === e.file && n.table === e.table));
    expect(stale).toEqual([]);
  });

  it('reports a table named by another library, and SQL outside a repository', () => {
    const owners = new Map([
      ['memories', 'memory'],
      ['tenants', 'tenancy'],
      ['projects', 'projects'],
    ]);
    const check = (file: string, text: string) => namingsIn(ROOT, join(ROOT, file), text, owners).map(shown);
    expect(
      check('libs/memory-sync/src/sync.repository.ts', 'const q = `SELECT id FROM memories m WHERE m.x = $1`;'),
    ).toEqual(['libs/memory-sync/src/sync.repository.ts:1 names memories (owned by libs/memory)']);
    expect(check('libs/auth/src/tokens.sql.ts', "const q = 'SELECT 1 FROM cairn.tenants t JOIN x ON true';")).toEqual([
      'libs/auth/src/tokens.sql.ts:1 names tenants (owned by libs/tenancy)',
    ]);
    expect(check('libs/search/src/ranking.sql.ts', "export const corpus = { table: 'memories' };")).toEqual([
      'libs/search/src/ranking.sql.ts:1 names memories (owned by libs/memory)',
    ]);
    expect(check('libs/memory/src/memory-writer.service.ts', 'const q = `UPDATE memories SET x = 1`;')).toEqual([
      'libs/memory/src/memory-writer.service.ts:1 names memories (owned by libs/memory) outside a repository',
    ]);
    expect(check('apps/api/src/main.ts', "const q = 'SELECT 1 FROM projects';")).toEqual([
      'apps/api/src/main.ts:1 names projects (owned by libs/projects)',
    ]);
  });

  it('leaves prose, columns and owners alone', () => {
    const owners = new Map([
      ['memories', 'memory'],
      ['projects', 'projects'],
    ]);
    const check = (file: string, text: string) => namingsIn(ROOT, join(ROOT, file), text, owners);
    expect(check('libs/memory/src/memories.repository.ts', 'const q = `SELECT * FROM memories m`;')).toEqual([]);
    expect(check('libs/extraction/src/facts.service.ts', "const d = 'Extracts facts from memories';")).toEqual([]);
    expect(check('libs/working-memory/src/wm.service.ts', "const s = { sourceTable: 'memories' };")).toEqual([]);
    expect(check('libs/knowledge/src/kb.repository.ts', 'const q = `SELECT c.projects FROM kb c`;')).toEqual([]);
  });
});

describe('SQL across library boundaries', () => {
  const indexes = readdirSync(join(ROOT, 'libs')).map((library) => join(ROOT, 'libs', library, 'src', 'index.ts'));

  it('exports no SQL from any library’s index.ts', () => {
    const found = indexes.flatMap((index) => {
      try {
        return sqlExportsOf(ROOT, index);
      } catch {
        return [];
      }
    });
    expect(found.map((item: SqlExport) => `${item.index}: ${item.name} (${item.why})`)).toEqual([]);
  });

  it('reports a builder, a fragment and a statement exported, and leaves services and types alone', () => {
    const root = mkdtempSync(join(tmpdir(), 'cairn-sql-exports-'));
    try {
      const src = join(root, 'libs', 'example', 'src');
      mkdirSync(src, { recursive: true });
      writeFileSync(
        join(src, 'widgets.sql.ts'),
        [
          'export function widgetFilter(a: string) { return `${a}.deleted_at IS NULL AND ${a}.x = 1`; }',
          "export const LOOKUP = { text: 'SELECT 1 FROM widgets WHERE id = $1' };",
          'export const WIDGETS_FROM = `widgets w`;',
        ].join('\n'),
      );
      writeFileSync(join(src, 'widgets.service.ts'), 'export class Widgets {}\nexport const PAGE = 20;\n');
      writeFileSync(
        join(src, 'index.ts'),
        [
          "export { LOOKUP, widgetFilter, WIDGETS_FROM } from './widgets.sql';",
          "export { PAGE, Widgets } from './widgets.service';",
          "export { type Widget } from './widget.types';",
        ].join('\n'),
      );
      expect(sqlExportsOf(root, join(src, 'index.ts')).map((item) => `${item.name} (${item.why})`)).toEqual([
        'LOOKUP (value)',
        'widgetFilter (value)',
        'WIDGETS_FROM (name)',
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
