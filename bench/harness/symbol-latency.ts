/**
 * How fast an agent finds a symbol through the harness, beside what it would run otherwise:
 * `code_symbol` and `code_search` over MCP (HTTP to the built gateway) for names sampled from
 * the index itself with a fixed seed, interleaved with `git grep -n -w <name>` over the same
 * tree, so load on the machine weighs on all three alike.
 */
import { quotedSchema } from '@cairn/tenancy';
import { type LatencySummary, summarize } from '../lib/stats';
import { prng } from '../search/templates';
import { type HarnessWorld, spawnTimed } from './fixture';

export const SAMPLE_SEED = 25;
const WARMUP = 5;

export interface SymbolLatency {
  readonly names: number;
  readonly codeSymbol: LatencySummary;
  readonly codeSearch: LatencySummary;
  readonly gitGrep: LatencySummary;
  /** Sampled names code_symbol found a definition of (all of them, as they come from the index). */
  readonly defined: number;
  /** …whose definition code_search ranked first. */
  readonly searchTop: number;
  /** …that git grep found as a whole word (names are sampled from indexed files, git grep reads tracked ones). */
  readonly grepFound: number;
}

/** Distinct symbol names of the index that code_symbol accepts, at least 3 characters, shuffled by `seed`. */
async function sampleNames(world: HarnessWorld, count: number, seed: number): Promise<string[]> {
  const rows = await world.bench.dataSource.query<{ name: string }[]>(
    `SELECT name FROM (
       SELECT DISTINCT name FROM ${quotedSchema(world.tenant.tenant.schema)}.code_symbols
       WHERE name ~ '^[A-Za-z_$][A-Za-z0-9_$]{2,199}$'
     ) names ORDER BY name COLLATE "C"`,
  );
  const names = rows.map((row) => row.name);
  const random = prng(seed);
  // Fisher-Yates: a fixed seed over a sorted list gives the same sample for the same index.
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [names[i], names[j]] = [names[j] ?? '', names[i] ?? ''];
  }
  return names.slice(0, count);
}

export async function measureSymbolLatency(world: HarnessWorld, root: string, count: number): Promise<SymbolLatency> {
  const names = await sampleNames(world, count + WARMUP, SAMPLE_SEED);
  const symbolMs: number[] = [];
  const searchMs: number[] = [];
  const grepMs: number[] = [];
  let defined = 0;
  let searchTop = 0;
  let grepFound = 0;
  for (const [i, name] of names.entries()) {
    const grep = await spawnTimed('git', ['grep', '-n', '-w', '--', name], { cwd: root });
    if (grep.code !== 0 && grep.code !== 1) throw new Error(`git grep ${name} exited ${grep.code}: ${grep.stderr}`);
    let began = performance.now();
    const symbol = await world.call('code_symbol', { name });
    const symbolTook = performance.now() - began;
    began = performance.now();
    const search = await world.call('code_search', { query: name });
    const searchTook = performance.now() - began;
    if (i < WARMUP) continue;
    grepMs.push(grep.ms);
    symbolMs.push(symbolTook);
    searchMs.push(searchTook);
    const definitions = (symbol.structuredContent?.definitions ?? []) as unknown[];
    const symbols = (search.structuredContent?.symbols ?? []) as { name: string }[];
    if (definitions.length > 0) defined += 1;
    if (symbols[0]?.name === name) searchTop += 1;
    if (grep.code === 0) grepFound += 1;
  }
  return {
    names: names.length - WARMUP,
    codeSymbol: summarize(symbolMs),
    codeSearch: summarize(searchMs),
    gitGrep: summarize(grepMs),
    defined,
    searchTop,
    grepFound,
  };
}
