import { loadConfig } from '@cairn/config';
import { CAIRN_APPS, cairnWorkloads, containerEnvironment } from './lib/environment';
import { CHART_DIR, type K8sObject, renderChart, run, tool, valueSets } from './lib/manifests';
import { UNCHECKED_CUSTOM_RESOURCES } from './lib/schema';

/**
 * The chart's CloudNativePG option (postgresql.cloudnativepg, docs/scaling.md): a Cluster with
 * pgvector and a PgBouncer Pooler in transaction mode, the apps on the Pooler, the migration on
 * the primary, and nothing of it when the option is off. No schema for these kinds is reachable
 * offline (lib/schema.ts skips them), so their fields are checked here one by one.
 */

const sets = valueSets();
const CNPG_KINDS = ['Cluster', 'Pooler'];
const cnpg = (objects: readonly K8sObject[], kind: string) =>
  objects.find((o) => o.apiVersion === 'postgresql.cnpg.io/v1' && o.kind === kind);
const secretData = (objects: readonly K8sObject[], name: string) => {
  const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === name);
  return Object.fromEntries(
    Object.entries((secret?.data ?? {}) as Record<string, string>).map(([k, v]) => [
      k,
      Buffer.from(v, 'base64').toString('utf8'),
    ]),
  );
};

describe('the chart with CloudNativePG on', () => {
  const objects = renderChart({ valuesFiles: sets.cloudnativepg });

  it('renders a Cluster with pgvector, spread over nodes, bootstrapped with the app user of its Secret', () => {
    const cluster = cnpg(objects, 'Cluster')!;
    expect(cluster.metadata.name).toBe('cairn-pg');
    expect(cluster.spec).toMatchObject({
      instances: 3,
      imageName: 'ghcr.io/cloudnative-pg/postgresql:17-standard-bookworm',
      storage: { size: '5Gi', storageClass: 'fast-ssd' },
      affinity: { enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname' },
      monitoring: { enablePodMonitor: true },
      postgresql: { parameters: { max_connections: '300' } },
      bootstrap: { initdb: { database: 'cairn', owner: 'cairn', secret: { name: 'cairn-pg-app' } } },
    });
    expect(cluster.spec.bootstrap.initdb.postInitApplicationSQL).toEqual([
      'CREATE EXTENSION IF NOT EXISTS vector',
      'CREATE EXTENSION IF NOT EXISTS pg_trgm',
    ]);
    const app = objects.find((o) => o.kind === 'Secret' && o.metadata.name === 'cairn-pg-app')!;
    expect(app.type).toBe('kubernetes.io/basic-auth');
    expect(app.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');
    expect(secretData(objects, 'cairn-pg-app')).toEqual({
      username: 'cairn',
      password: 'cnpg-test-not-a-real-password',
    });
  });

  it('renders a PgBouncer Pooler in transaction mode in front of the primary, with prepared statements', () => {
    const pooler = cnpg(objects, 'Pooler')!;
    expect(pooler.metadata.name).toBe('cairn-pg-pooler-rw');
    expect(pooler.spec).toEqual({
      cluster: { name: 'cairn-pg' },
      instances: 2,
      type: 'rw',
      pgbouncer: {
        poolMode: 'transaction',
        parameters: { max_client_conn: '1000', default_pool_size: '25', max_prepared_statements: '200' },
      },
    });
  });

  it('points the apps at the Pooler and the migration at the primary, with the same user', () => {
    const workloads = cairnWorkloads(objects);
    const password = 'cnpg-test-not-a-real-password';
    for (const app of CAIRN_APPS) {
      const { env } = containerEnvironment(objects, workloads[app]);
      expect(env.DATABASE_URL).toBe(`postgresql://cairn:${password}@cairn-pg-pooler-rw:5432/cairn`);
      // A URL the apps' configuration accepts.
      expect(loadConfig(app, { ...env, CAIRN_ADMIN_TOKEN: 'a'.repeat(40) }).database.url).toBe(env.DATABASE_URL);
    }
    // The migration works through the Pooler and holds its session advisory lock straight on the
    // primary's -rw service, which the apps' LISTEN uses too (DATABASE_DIRECT_URL).
    const { env } = containerEnvironment(objects, workloads.migrate);
    const primary = `postgresql://cairn:${password}@cairn-pg-rw:5432/cairn`;
    expect(env).toMatchObject({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: primary });
    expect(workloads.migrate.metadata.annotations?.['helm.sh/hook']).toBe('post-install,pre-upgrade');
    expect(secretData(objects, 'cairn').DATABASE_DIRECT_URL).toBe(primary);
    for (const app of CAIRN_APPS) {
      const apps = containerEnvironment(objects, workloads[app]).env;
      expect(apps).toMatchObject({ DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: primary });
      expect(loadConfig(app, { ...apps, CAIRN_ADMIN_TOKEN: 'a'.repeat(40) }).database.sessionUrl).toBe(primary);
    }
  });

  it('renders no bundled PostgreSQL, and lets the apps reach the Cluster and the Pooler', () => {
    expect(objects.filter((o) => o.metadata.name === 'cairn-postgresql')).toEqual([]);
    const policy = objects.find(
      (o) => o.kind === 'NetworkPolicy' && o.metadata.labels?.['app.kubernetes.io/component'] === 'api',
    )!;
    const egress = JSON.stringify(policy.spec.egress);
    expect(egress).toContain('"cnpg.io/cluster":"cairn-pg"');
    expect(egress).toContain('"cnpg.io/poolerName":"cairn-pg-pooler-rw"');
  });

  it('skips only the CloudNativePG kinds in schema validation', () => {
    const kinds = new Set(objects.map((o) => `${o.apiVersion}/${o.kind}`));
    expect([...kinds].filter((kind) => UNCHECKED_CUSTOM_RESOURCES.has(kind)).sort()).toEqual([
      'postgresql.cnpg.io/v1/Cluster',
      'postgresql.cnpg.io/v1/Pooler',
    ]);
  });
});

describe('the chart with CloudNativePG off', () => {
  it.each(Object.keys(sets).filter((name) => name !== 'cloudnativepg'))(
    'renders none of it with the %s values',
    (name) => {
      const objects = renderChart({ valuesFiles: sets[name] });
      expect(objects.filter((o) => o.apiVersion === 'postgresql.cnpg.io/v1')).toEqual([]);
      expect(objects.filter((o) => o.metadata.name === 'cairn-pg-app')).toEqual([]);
      expect(CNPG_KINDS.map((kind) => cnpg(objects, kind))).toEqual([undefined, undefined]);
    },
  );

  it('refuses the bundled PostgreSQL and a CloudNativePG Cluster together', () => {
    expect(() =>
      run(tool('helm'), [
        'template',
        'x',
        CHART_DIR,
        '--set',
        'postgresql.enabled=true',
        '--set',
        'postgresql.cloudnativepg.enabled=true',
      ]),
    ).toThrow(/exclude each other/);
  });
});
