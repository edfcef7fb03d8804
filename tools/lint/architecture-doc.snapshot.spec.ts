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
 * docs/architecture.md lists every library's tier and every import between libraries, generated
 * from tools/lint/library-tiers.cjs and from the code by dependency-cruiser, so the page a
 * newcomer reads first cannot drift from what is true.
 */
const ROOT = join(__dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'architecture.md');
const START = '<!-- library-dependencies:start -->';
const END = '<!-- library-dependencies:end -->';
const TIERS_START = '<!-- library-tiers:start -->';
const TIERS_END = '<!-- library-tiers:end -->';

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

/** `doc` with the text between `start` and `end` replaced by `body`. */
function between(doc: string, start: string, end: string, body: string): string {
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  expect(from).toBeGreaterThan(0);
  expect(to).toBeGreaterThan(from);
  return `${doc.slice(0, from + start.length)}\n\n${body}\n\n${doc.slice(to)}`;
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
  it("lists every library's tier and the imports between libraries as the code has them", async () => {
    const doc = readFileSync(DOC, 'utf8');
    const fresh = between(between(doc, TIERS_START, TIERS_END, tierTable()), START, END, table(await libraryGraph()));
    // As `npm run format` would write it, so the committed page passes `prettier --check`.
    const prettier = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
    const formatted = execFileSync(process.execPath, [prettier, '--stdin-filepath', DOC], { cwd: ROOT, input: fresh });
    expectCommittedFile(DOC, formatted.toString('utf8'));
  });
});
