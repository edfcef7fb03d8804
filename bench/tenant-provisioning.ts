import { randomBytes, randomUUID } from 'node:crypto';
import { quotedSchema, schemaNameFor, TENANT_BASELINE } from '@cairn/tenancy';
import { Client } from 'pg';
import { type InjectClient } from './lib/app';
import { type ResultRow, row } from './lib/report';
import { type LatencySummary, summarize } from './lib/stats';

const NAME = 'tenant provisioning';
const BASELINE_NAME = 'bare SQL, one pg client';
const WARMUP_ROUNDS = 3;

export interface TenantProvisioningInput {
  readonly client: InjectClient;
  readonly adminToken: string;
  readonly databaseUrl: string;
  readonly tenants: number;
}

export interface TenantProvisioningResult {
  readonly rows: ResultRow[];
  readonly data: {
    readonly tenants: number;
    readonly warmupRounds: number;
    readonly tenantMigrations: number;
    readonly cairnMs: LatencySummary;
    readonly baselineMs: LatencySummary;
    readonly cairnSamplesMs: number[];
    readonly baselineSamplesMs: number[];
  };
}

/**
 * The floor of what `POST /v1/tenants` must do, straight on one pg connection: in one
 * transaction, a row into a scratch table, CREATE SCHEMA, then the tenant schema's baseline
 * script (what provisioning runs instead of replaying the migrations, libs/tenancy) with the
 * schema first on the search path.
 */
class BareProvisioner {
  private constructor(private readonly client: Client) {}

  static async connect(databaseUrl: string): Promise<BareProvisioner> {
    const client = new Client({ connectionString: databaseUrl, application_name: 'cairn-bench-baseline' });
    await client.connect();
    await client.query(`CREATE SCHEMA IF NOT EXISTS bench_scratch`);
    await client.query(`
      CREATE TABLE IF NOT EXISTS bench_scratch.tenants (
        id uuid PRIMARY KEY,
        slug text NOT NULL UNIQUE,
        name text NOT NULL,
        schema_name text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    return new BareProvisioner(client);
  }

  async provision(slug: string): Promise<void> {
    const id = randomUUID();
    const schema = schemaNameFor(id);
    await this.client.query('BEGIN');
    try {
      await this.client.query(
        `INSERT INTO bench_scratch.tenants (id, slug, name, schema_name) VALUES ($1, $2, $3, $4)`,
        [id, slug, `Tenant ${slug}`, schema],
      );
      await this.client.query(`CREATE SCHEMA ${quotedSchema(schema)}`);
      await this.client.query(`SELECT set_config('search_path', $1, true)`, [`${quotedSchema(schema)}, public`]);
      await this.client.query(TENANT_BASELINE.sql);
      await this.client.query('COMMIT');
    } catch (error) {
      await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  close(): Promise<void> {
    return this.client.end();
  }
}

async function timed(work: () => Promise<void>): Promise<number> {
  const begin = performance.now();
  await work();
  return performance.now() - begin;
}

/**
 * Creates `tenants` tenants through the API and as many bare-SQL equivalents, one at a
 * time, alternating which goes first each round so drift (catalog growth, autovacuum,
 * a busy neighbour) lands on both sides alike. A few unmeasured rounds warm up first.
 */
export async function benchTenantProvisioning(input: TenantProvisioningInput): Promise<TenantProvisioningResult> {
  const run = randomBytes(3).toString('hex');
  const baseline = await BareProvisioner.connect(input.databaseUrl);
  const cairnSamples: number[] = [];
  const baselineSamples: number[] = [];
  try {
    const viaApi = async (label: string) => {
      const slug = `bench-${run}-${label}`;
      await input.client.expectJson(201, 'POST', '/v1/tenants', input.adminToken, { slug, name: `Tenant ${slug}` });
    };
    const viaSql = (label: string) => baseline.provision(`bench-${run}-${label}`);

    for (let i = 0; i < WARMUP_ROUNDS; i++) {
      await viaApi(`wa${i}`);
      await viaSql(`wb${i}`);
    }
    for (let i = 0; i < input.tenants; i++) {
      const cairn = () => timed(() => viaApi(`a${i}`));
      const bare = () => timed(() => viaSql(`b${i}`));
      if (i % 2 === 0) {
        cairnSamples.push(await cairn());
        baselineSamples.push(await bare());
      } else {
        baselineSamples.push(await bare());
        cairnSamples.push(await cairn());
      }
    }
  } finally {
    await baseline.close();
  }

  const cairnMs = summarize(cairnSamples);
  const baselineMs = summarize(baselineSamples);
  const metric = (label: string, key: 'p50' | 'p95' | 'p99' | 'max') =>
    row(NAME, `POST /v1/tenants ${label}`, 'ms', cairnMs[key], { name: BASELINE_NAME, value: baselineMs[key] });
  return {
    rows: [metric('p50', 'p50'), metric('p95', 'p95'), metric('p99', 'p99'), metric('max', 'max')],
    data: {
      tenants: input.tenants,
      warmupRounds: WARMUP_ROUNDS,
      tenantMigrations: TENANT_BASELINE.version,
      cairnMs,
      baselineMs,
      cairnSamplesMs: cairnSamples.map(round3),
      baselineSamplesMs: baselineSamples.map(round3),
    },
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
