import { execFile, execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expectCommittedFile } from '@cairn/testing';
// The tier of every library, which .dependency-cruiser.cjs enforces (a CommonJS file: the
// dependency-cruiser configuration reads it too).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { TIERS, ORDER } = require('./library-tiers.cjs') as {
  TIERS: Record<string, Record<string, string>>;
  ORDER: readonly string[];
};

/**
 * docs/architecture.md lists every library's tier (tools/lint/library-tiers.cjs), every import
 * between libraries (generated from the code by dependency-cruiser) and the owner of every table
 * (docs/table-owners.json, which tools/lint/sql-ownership.spec.ts holds the code to), so the page a
 * newcomer reads first cannot drift from what is true.
 */
const ROOT = join(__dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'architecture.md');
const OWNERS = join(ROOT, 'docs', 'table-owners.json');

interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
}

async function libraryGraph(): Promise<Map<string, Set<string>>> {
  const cli = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
  const args = ['libs', '--config', '.dependency-cruiser.cjs', '--exclude', '\\.spec\\.ts$', '--output-type', 'json'];
  const { stdout } = await promisify(execFile)(process.execPath, [cli, ...args], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  const graph = new Map<string, Set<string>>();
  const library = (path: string) => /^libs\/([^/]+)\//.exec(path)?.[1];
  for (const module of (JSON.parse(stdout) as CruiseResult).modules) {
    const from = library(module.source);
    if (!from) continue;
    const uses = graph.get(from) ?? new Set<string>();
    graph.set(from, uses);
    for (const dependency of module.dependencies) {
      const to = library(dependency.resolved);
      if (to && to !== from) uses.add(to);
    }
  }
  return graph;
}

function table(graph: Map<string, Set<string>>): string {
  const usedBy = new Map<string, string[]>();
  for (const [from, uses] of graph) for (const to of uses) usedBy.set(to, [...(usedBy.get(to) ?? []), from]);
  const rows = [...graph.keys()].sort().map((name) => {
    const list = (names: Iterable<string>) => [...names].sort().join(', ') || '—';
    return `| \`${name}\` | ${list(graph.get(name) ?? [])} | ${list(usedBy.get(name) ?? [])} |`;
  });
  return ['| library | imports | imported by |', '| --- | --- | --- |', ...rows].join('\n');
}

function tierTable(): string {
  const rows = ORDER.flatMap((tier) =>
    Object.entries(TIERS[tier] ?? {}).map(([name, what]) => `| ${tier} | \`${name}\` | ${what} |`),
  );
  return ['| tier | library | what it is |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The ownership map as a table per owning library. */
function ownersTable(map: Record<'tenant' | 'control', Record<string, string>>): string {
  const byOwner = new Map<string, { tenant: string[]; control: string[] }>();
  for (const schema of ['tenant', 'control'] as const) {
    for (const [name, owner] of Object.entries(map[schema])) {
      const entry = byOwner.get(owner) ?? { tenant: [], control: [] };
      entry[schema].push(name);
      byOwner.set(owner, entry);
    }
  }
  const list = (names: string[]) =>
    names
      .sort()
      .map((name) => `\`${name}\``)
      .join(', ') || '—';
  const rows = [...byOwner.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([owner, entry]) => `| \`${owner}\` | ${list(entry.tenant)} | ${list(entry.control)} |`);
  return ['| library | tenant tables | control tables (`cairn.`) |', '| --- | --- | --- |', ...rows].join('\n');
}

/** `doc` with the generated text between `<!-- name:start -->` and `<!-- name:end -->` replaced. */
function withSection(doc: string, name: string, text: string): string {
  const [START, END] = [`<!-- ${name}:start -->`, `<!-- ${name}:end -->`];
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return `${doc.slice(0, start + START.length)}\n\n${text}\n\n${doc.slice(end)}`;
}

describe('library tiers', () => {
  it('give every library under libs/ exactly one tier, and name no other', () => {
    const libraries = readdirSync(join(ROOT, 'libs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const tiered = ORDER.flatMap((tier) => Object.keys(TIERS[tier] ?? {}));
    expect([...tiered].sort()).toEqual(libraries);
    expect(new Set(tiered).size).toBe(tiered.length);
  });
});

describe('docs/architecture.md', () => {
  it("lists every library's tier, the imports between libraries and the owner of every table as the code has them", async () => {
    const doc = readFileSync(DOC, 'utf8');
    const owners = JSON.parse(readFileSync(OWNERS, 'utf8')) as Record<'tenant' | 'control', Record<string, string>>;
    const fresh = withSection(
      withSection(withSection(doc, 'library-tiers', tierTable()), 'library-dependencies', table(await libraryGraph())),
      'table-owners',
      ownersTable(owners),
    );
    // As `npm run format` would write it, so the committed page passes `prettier --check`.
    const prettier = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
    const formatted = execFileSync(process.execPath, [prettier, '--stdin-filepath', DOC], { cwd: ROOT, input: fresh });
    expectCommittedFile(DOC, formatted.toString('utf8'));
  });
});
