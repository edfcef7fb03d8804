/**
 * What a fleet of tenants costs a recall, and what it costs PostgreSQL's backends.
 *
 * - Recall latency for a random tenant among all N against a random tenant among the first 10
 *   (the baseline: the same app, pool and data, but a pool whose connections only ever see ten
 *   schemas), keyword and hybrid, interleaved in slices so drift lands on both alike.
 * - Backend memory: an app whose pool holds one connection recalls in 10, 100, 1,000 … tenants
 *   in turn; after each step the backend reports its memory contexts (pg_backend_memory_contexts:
 *   CacheMemoryContext holds the relation and catalog caches every touched schema leaves behind)
 *   and, when PostgreSQL runs on this machine, its private resident memory from /proc. Then
 *   DISCARD ALL, to show it gives none of that back: only a new connection does, which is why
 *   the pool recycles connections (DATABASE_POOL_MAX_LIFETIME_SECONDS).
 */
import { readFileSync } from 'node:fs';
import { SYSTEM_VIEWER } from '@cairn/memory';
import { type SearchMode } from '@cairn/search';
import { compareUnderLoad, type LoadOptions, type LoadResult } from '../lib/load';
import { corpusMemory } from '../search/corpus';
import { type SearchApp } from '../search/fixture';
import { type Fleet, type FleetTenant } from './fleet-seed';

export const FEW_TENANTS = 10;
const QUERY_WORDS = 6;

export interface RecallAcrossFleet {
  readonly mode: SearchMode;
  readonly concurrency: number;
  readonly amongFew: LoadResult;
  readonly amongAll: LoadResult;
}

export interface BackendMemoryStep {
  /** Tenants this one backend has recalled in so far ('after DISCARD ALL' repeats the last count). */
  readonly tenantsTouched: number;
  readonly label: string;
  readonly contextsMiB: number;
  readonly cacheContextMiB: number;
  /** Private resident memory of the backend process (null: PostgreSQL is not on this machine). */
  readonly privateMiB: number | null;
}

/** A question for a tenant: the first words of one of its own memories (deterministic per draw). */
function questionFor(fleet: Fleet, tenant: FleetTenant, draw: number): string {
  const memory = corpusMemory(tenant.firstMemory + (draw % fleet.memoriesPerTenant));
  return memory.content.split(/\s+/).slice(0, QUERY_WORDS).join(' ');
}

function recallIn(bench: SearchApp, fleet: Fleet, tenant: FleetTenant, draw: number, mode: SearchMode) {
  return bench.entry.run(tenant.tenant, () =>
    bench.recall.recall(tenant.projectSlug, SYSTEM_VIEWER, {
      query: questionFor(fleet, tenant, draw),
      mode,
      limit: 10,
      explain: false,
      filter: {},
    }),
  );
}

/** Recall for a random tenant among all of them vs. among the first ten, per mode and concurrency. */
export async function recallAcrossFleet(
  bench: SearchApp,
  fleet: Fleet,
  modes: readonly SearchMode[],
  concurrencies: readonly number[],
  load: Omit<LoadOptions, 'concurrency'>,
): Promise<RecallAcrossFleet[]> {
  const results: RecallAcrossFleet[] = [];
  let draw = 0;
  const pick = (within: number): FleetTenant => {
    const tenant = fleet.tenants[Math.floor(Math.random() * within)];
    if (!tenant) throw new Error('empty fleet');
    return tenant;
  };
  for (const mode of modes) {
    for (const concurrency of concurrencies) {
      const measured = await compareUnderLoad(
        {
          amongFew: async () => {
            await recallIn(bench, fleet, pick(Math.min(FEW_TENANTS, fleet.tenants.length)), draw++, mode);
          },
          amongAll: async () => {
            await recallIn(bench, fleet, pick(fleet.tenants.length), draw++, mode);
          },
        },
        { ...load, concurrency },
      );
      results.push({ mode, concurrency, amongFew: measured.amongFew, amongAll: measured.amongAll });
    }
  }
  return results;
}

const MIB = 1024 * 1024;

async function backendMemory(bench: SearchApp, tenantsTouched: number, label: string): Promise<BackendMemoryStep> {
  const [row] = await bench.dataSource.query<{ pid: number; total: string; cache: string }[]>(
    `SELECT pg_backend_pid() AS pid,
            sum(total_bytes) AS total,
            sum(total_bytes) FILTER (WHERE name = 'CacheMemoryContext' OR parent = 'CacheMemoryContext') AS cache
       FROM pg_backend_memory_contexts`,
  );
  if (!row) throw new Error('pg_backend_memory_contexts returned nothing');
  return {
    tenantsTouched,
    label,
    contextsMiB: Number(row.total) / MIB,
    cacheContextMiB: Number(row.cache) / MIB,
    privateMiB: privateResidentMiB(row.pid),
  };
}

/** Private_Clean + Private_Dirty of a local process, or null where /proc cannot tell. */
function privateResidentMiB(pid: number): number | null {
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? 0);
    return (kb('Private_Clean') + kb('Private_Dirty')) / 1024;
  } catch {
    return null;
  }
}

/**
 * `single` must be an app whose pool holds exactly one connection that is never recycled, so
 * every recall lands on the same backend.
 */
export async function backendMemoryAcrossFleet(
  single: SearchApp,
  fleet: Fleet,
  checkpoints: readonly number[],
): Promise<BackendMemoryStep[]> {
  const steps: BackendMemoryStep[] = [await backendMemory(single, 0, 'fresh connection')];
  const order = [...fleet.tenants].sort(() => Math.random() - 0.5);
  let touched = 0;
  for (const checkpoint of checkpoints) {
    for (; touched < checkpoint && touched < order.length; touched++) {
      const tenant = order[touched];
      if (tenant) await recallIn(single, fleet, tenant, touched, 'hybrid');
    }
    steps.push(await backendMemory(single, touched, `after recalls in ${touched} tenants`));
  }
  await single.dataSource.query('DISCARD ALL');
  steps.push(await backendMemory(single, touched, 'after DISCARD ALL'));
  return steps;
}
