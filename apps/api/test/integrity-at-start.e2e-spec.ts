import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTEGRITY_EXIT_CODE, type IntegrityManifest, writeIntegrityManifest } from '@cairn/integrity';
import { createTestDatabase, type TestDatabase, testRedisUrl } from '@cairn/testing';
import {
  eventually,
  generateSecrets,
  http,
  killAllChildren,
  type ProcessAppName,
  REPO_ROOT,
  type Secrets,
  spawnApp,
} from './process-harness';

/**
 * CAIRN_INTEGRITY in the built apps: the shipped files (here the worker's compiled files, as
 * the build left them) against a manifest. The tampered manifest disagrees with the disk in the
 * three ways a tree can: one digest changed, one file unlisted (added), one listed file absent.
 */

const ROOTS = ['dist/apps/worker'];
const CHANGED = 'dist/apps/worker/src/main.js';
const ADDED = 'dist/apps/worker/src/worker.module.js';
const MISSING = 'dist/apps/worker/src/backdoor.js';

let database: TestDatabase;
let secrets: Secrets;
let dir: string;
let intact: string;
let tampered: string;

beforeAll(async () => {
  database = await createTestDatabase();
  secrets = generateSecrets();
  dir = mkdtempSync(join(tmpdir(), 'cairn-integrity-e2e-'));
  intact = join(dir, 'intact.json');
  tampered = join(dir, 'tampered.json');
  await writeIntegrityManifest({ baseDir: REPO_ROOT, roots: ROOTS, manifestPath: intact, version: 'e2e' });
  const manifest = JSON.parse(readFileSync(intact, 'utf8')) as IntegrityManifest;
  expect(Object.keys(manifest.files)).toEqual(expect.arrayContaining([CHANGED, ADDED]));
  manifest.files[CHANGED] = '0'.repeat(64);
  delete manifest.files[ADDED];
  manifest.files[MISSING] = 'f'.repeat(64);
  writeFileSync(tampered, JSON.stringify(manifest));
});

afterEach(() => killAllChildren());

afterAll(async () => {
  await killAllChildren();
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function appEnv(app: ProcessAppName, integrity: Record<string, string>) {
  return {
    DATABASE_URL: database.url,
    REDIS_URL: testRedisUrl(),
    CAIRN_MASTER_KEY: secrets.masterKey,
    CAIRN_ADMIN_TOKEN: app === 'api' ? secrets.adminToken : undefined,
    ...integrity,
  };
}

/** /readyz once the app answers and its integrity check has reported (warn runs it beside start-up). */
async function integrityReadiness(url: string) {
  return eventually(
    async () => {
      const answer = await http(`${url}/readyz`);
      return answer.body.checks.integrity.info.status === 'pending' ? undefined : answer;
    },
    60_000,
    'the integrity report in /readyz',
  );
}

describe.each<ProcessAppName>(['api', 'mcp-gateway', 'worker'])('CAIRN_INTEGRITY=strict in the %s', (app) => {
  it(`refuses to start on a tampered tree: exit ${INTEGRITY_EXIT_CODE} and the paths on stderr`, async () => {
    const running = await spawnApp(app, appEnv(app, { CAIRN_INTEGRITY: 'strict', CAIRN_INTEGRITY_MANIFEST: tampered }));
    const exit = await running.process.waitForExit(30_000);
    expect(exit.code).toBe(INTEGRITY_EXIT_CODE);
    const { stderr } = running.process;
    expect(stderr).toContain(`cairn ${app}: refusing to start (CAIRN_INTEGRITY=strict): 1 changed, 1 added, 1 missing`);
    expect(stderr).toContain(`  changed: ${CHANGED}`);
    expect(stderr).toContain(`  added:   ${ADDED}`);
    expect(stderr).toContain(`  missing: ${MISSING}`);
    const fatal = running.process.logLines().find((line) => line.level === 'fatal');
    expect(fatal?.integrity).toMatchObject({ status: 'tampered', changed: { count: 1, paths: [CHANGED] } });
    // Never listened: the check runs before the app is built.
    expect(running.process.logLines().map((line) => line.msg)).not.toContain('listening');
  });
});

describe('CAIRN_INTEGRITY in a running app', () => {
  it('strict starts on an intact tree and says so in /readyz', async () => {
    const running = await spawnApp(
      'worker',
      appEnv('worker', { CAIRN_INTEGRITY: 'strict', CAIRN_INTEGRITY_MANIFEST: intact }),
    );
    const { body } = await integrityReadiness(running.url);
    expect(body.checks.integrity).toMatchObject({
      ok: true,
      info: { mode: 'strict', status: 'intact', baseline: { version: 'e2e' }, changed: { count: 0 } },
    });
  });

  it('strict refuses to start without a manifest', async () => {
    const missing = join(dir, 'none.json');
    const running = await spawnApp(
      'worker',
      appEnv('worker', { CAIRN_INTEGRITY: 'strict', CAIRN_INTEGRITY_MANIFEST: missing }),
    );
    expect((await running.process.waitForExit(30_000)).code).toBe(INTEGRITY_EXIT_CODE);
    expect(running.process.stderr).toContain(`no integrity manifest at ${missing}`);
  });

  it('warn starts on a tampered tree, ready but degraded, with the report in /readyz, the log and /metrics', async () => {
    const running = await spawnApp(
      'api',
      appEnv('api', { CAIRN_INTEGRITY: 'warn', CAIRN_INTEGRITY_MANIFEST: tampered }),
    );
    const { status, body } = await integrityReadiness(running.url);
    expect(status).toBe(200);
    expect(body.status).toBe('ready');
    expect(body.degraded).toContain('integrity');
    expect(body.checks.integrity).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/^1 changed, 1 added, 1 missing against the baseline/),
      info: {
        mode: 'warn',
        status: 'tampered',
        changed: { count: 1, paths: [CHANGED] },
        added: { count: 1, paths: [ADDED] },
        missing: { count: 1, paths: [MISSING] },
      },
    });
    const warning = await running.process.waitForLog((line) => line.msg?.startsWith('integrity check: 1 changed'));
    expect(warning).toMatchObject({ level: 'warn', integrity: { status: 'tampered', missing: { paths: [MISSING] } } });
    const metrics = (await http(`${running.url}/metrics`)).text;
    expect(metrics).toMatch(/^cairn_integrity_files\{state="changed"\} 1$/m);
    expect(metrics).toMatch(/^cairn_integrity_files\{state="missing"\} 1$/m);
  });

  it('off skips the check, even on a tampered tree', async () => {
    const running = await spawnApp(
      'worker',
      appEnv('worker', { CAIRN_INTEGRITY: 'off', CAIRN_INTEGRITY_MANIFEST: tampered }),
    );
    const { body } = await integrityReadiness(running.url);
    expect(body.degraded).not.toContain('integrity');
    expect(body.checks.integrity).toMatchObject({ ok: true, info: { mode: 'off', status: 'skipped', checked: 0 } });
  });
});
