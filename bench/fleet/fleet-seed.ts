/**
 * The fleet: N tenants made through the admin API, one at a time (each creation timed: this
 * is the provisioning figure, measured while the catalog grows), each with one project and a
 * few memories put in with the search benchmark's bulk insert and embedded with the worker's
 * own EmbeddingProcessor, so every tenant has something to recall.
 */
import { type TenantRef } from '@cairn/tenancy';
import { corpusMemory } from '../search/corpus';
import { type SearchApp } from '../search/fixture';
import { BULK_MEMORY_INSERT_SQL, bulkMemoryRow } from '../search/seed';
import { randomBytes, randomUUID } from 'node:crypto';

export interface FleetTenant {
  readonly tenant: TenantRef;
  readonly projectSlug: string;
  /** Index of its first memory in the shared corpus (its memories are first … first + perTenant - 1). */
  readonly firstMemory: number;
}

export interface Fleet {
  readonly tenants: FleetTenant[];
  /** Milliseconds each `POST /v1/tenants` took, in creation order. */
  readonly provisioningMs: number[];
  readonly memoriesPerTenant: number;
  readonly seedSeconds: number;
}

const PROJECT = 'fleet';

export async function buildFleet(
  bench: SearchApp,
  count: number,
  memoriesPerTenant: number,
  runStart: Date,
  log: (line: string) => void,
): Promise<Fleet> {
  const run = randomBytes(3).toString('hex');
  const tenants: FleetTenant[] = [];
  const provisioningMs: number[] = [];
  const begin = performance.now();
  for (let i = 0; i < count; i++) {
    const slug = `fleet-${run}-${i}`;
    const started = performance.now();
    const tenant = await bench.client.expectJson<TenantRef>(201, 'POST', '/v1/tenants', bench.adminToken, {
      slug,
      name: `Fleet tenant ${i}`,
    });
    provisioningMs.push(performance.now() - started);
    const project = await bench.client.expectJson<{ id: string; slug: string }>(
      201,
      'POST',
      `/v1/tenants/${slug}/projects`,
      bench.adminToken,
      { slug: PROJECT, name: 'Fleet project' },
    );
    const ref = { id: tenant.id, slug: tenant.slug, schema: tenant.schema };
    const firstMemory = i * memoriesPerTenant;
    await seedTenant(bench, ref, project.id, firstMemory, memoriesPerTenant, runStart);
    tenants.push({ tenant: ref, projectSlug: project.slug, firstMemory });
    if ((i + 1) % 500 === 0 || i + 1 === count) {
      log(`  ${i + 1} of ${count} tenants provisioned and seeded (${seconds(performance.now() - begin)} s)`);
    }
  }
  return { tenants, provisioningMs, memoriesPerTenant, seedSeconds: (performance.now() - begin) / 1000 };
}

/** One transaction of rows, then their vectors through the worker's processor. */
async function seedTenant(
  bench: SearchApp,
  tenant: TenantRef,
  projectId: string,
  first: number,
  count: number,
  runStart: Date,
): Promise<void> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const rows = ids.map((id, offset) => bulkMemoryRow(id, corpusMemory(first + offset), runStart));
  await bench.entry.run(tenant, async () => {
    // No author: the fleet's memories are written by nobody in particular (the columns allow it).
    await bench.tx.run(() =>
      bench.db.query(BULK_MEMORY_INSERT_SQL, [JSON.stringify(rows), projectId, null, null, null]),
    );
    const outcome = await bench.processor.process({ target: 'memory', ids });
    if (outcome.status !== 'embedded' || outcome.count !== count) {
      throw new Error(`tenant ${tenant.slug}: embedding said ${outcome.status} for ${count} memories`);
    }
  });
}

/**
 * Drops `sample` tenants of the fleet (its last ones) through the admin API, as an operator
 * would, timing each `DELETE /v1/tenants/:slug` while the rest still stand. The others go
 * with the throwaway database the run drops at its end (one by one, 3,000 took 8 minutes).
 */
export async function dropFleetSample(
  bench: SearchApp,
  fleet: readonly FleetTenant[],
  sample: number,
  log: (line: string) => void,
): Promise<number[]> {
  const dropped = fleet.slice(-sample);
  const durationsMs: number[] = [];
  for (const { tenant } of dropped) {
    const started = performance.now();
    const response = await bench.app.inject({
      method: 'DELETE',
      url: `/v1/tenants/${tenant.slug}`,
      headers: { authorization: `Bearer ${bench.adminToken}` },
    });
    durationsMs.push(performance.now() - started);
    if (response.statusCode >= 300) throw new Error(`DELETE tenant: ${response.statusCode} ${response.body}`);
  }
  log(`  dropped ${dropped.length} of ${fleet.length} tenants in ${seconds(durationsMs.reduce((a, b) => a + b, 0))} s`);
  return durationsMs;
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
