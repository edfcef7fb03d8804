import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expectCommittedFile } from '@cairn/testing';

/**
 * docs/architecture.md lists every import between libraries, generated from the code by
 * dependency-cruiser, so the page a newcomer reads first cannot drift from what is true.
 */
const ROOT = join(__dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'architecture.md');
const START = '<!-- library-dependencies:start -->';
const END = '<!-- library-dependencies:end -->';

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

describe('docs/architecture.md', () => {
  it('lists the imports between libraries as the code has them', async () => {
    const doc = readFileSync(DOC, 'utf8');
    const start = doc.indexOf(START);
    const end = doc.indexOf(END);
    expect(start).toBeGreaterThan(0);
    expect(end).toBeGreaterThan(start);
    const fresh = `${doc.slice(0, start + START.length)}\n\n${table(await libraryGraph())}\n\n${doc.slice(end)}`;
    // As `npm run format` would write it, so the committed page passes `prettier --check`.
    const prettier = join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs');
    const formatted = execFileSync(process.execPath, [prettier, '--stdin-filepath', DOC], { cwd: ROOT, input: fresh });
    expectCommittedFile(DOC, formatted.toString('utf8'));
  });
});
