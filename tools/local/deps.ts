import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isRoot, type Log, run, silent, which } from './util';

const MIN_PG_MAJOR = 15;
const MIN_PGVECTOR = [0, 8];
const MIN_REDIS = [7, 0];

export class MissingDependenciesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MissingDependenciesError';
  }
}

export interface PostgresInstall {
  major: number;
  binDir: string;
  extensionDir: string;
}

export interface SystemDependencies {
  postgres: PostgresInstall;
  redisServer: string;
}

interface Detection {
  postgres?: PostgresInstall;
  redisServer?: string;
  missing: string[];
}

function versionAtLeast(version: string, min: number[]): boolean {
  const parts = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < min.length; i++) {
    if ((parts[i] ?? 0) !== min[i]) return (parts[i] ?? 0) > min[i];
  }
  return true;
}

async function findPostgres(): Promise<PostgresInstall | undefined> {
  // Debian/Ubuntu keep several majors side by side; CAIRN_PG_MAJOR matches install-deps.sh.
  const forced = Number.parseInt(process.env.CAIRN_PG_MAJOR ?? '', 10);
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .map((d) => Number.parseInt(d, 10))
        .filter((m) => m >= MIN_PG_MAJOR && existsSync(join(root, String(m), 'bin', 'postgres')))
        .filter((m) => !forced || m === forced)
        .sort((a, b) => b - a)
    : [];
  if (majors.length > 0) {
    const major = majors[0];
    return {
      major,
      binDir: join(root, String(major), 'bin'),
      extensionDir: `/usr/share/postgresql/${major}/extension`,
    };
  }
  // Elsewhere (Homebrew, source builds) pg_config on PATH describes the install.
  const pgConfig = which('pg_config');
  if (!pgConfig) return undefined;
  const [bindir, sharedir, version] = await Promise.all(
    ['--bindir', '--sharedir', '--version'].map(async (flag) => (await run(pgConfig, [flag])).stdout.trim()),
  );
  const major = Number.parseInt(/(\d+)/.exec(version)?.[1] ?? '0', 10);
  if (major < MIN_PG_MAJOR || (forced && major !== forced)) return undefined;
  return { major, binDir: bindir, extensionDir: join(sharedir, 'extension') };
}

async function detect(): Promise<Detection> {
  const missing: string[] = [];
  const postgres = await findPostgres();
  if (!postgres) {
    missing.push(`PostgreSQL >= ${MIN_PG_MAJOR} server binaries (Debian/Ubuntu package: postgresql)`);
  } else {
    const tools = ['postgres', 'initdb', 'pg_ctl', 'psql'].filter((t) => !existsSync(join(postgres.binDir, t)));
    if (tools.length > 0) missing.push(`PostgreSQL ${postgres.major} tools ${tools.join(', ')} in ${postgres.binDir}`);
    const control = join(postgres.extensionDir, 'vector.control');
    const version = existsSync(control)
      ? /default_version\s*=\s*'([^']+)'/.exec(readFileSync(control, 'utf8'))?.[1]
      : undefined;
    if (!version || !versionAtLeast(version, MIN_PGVECTOR)) {
      const found = version ? ` (found ${version})` : ` (no ${control})`;
      missing.push(`pgvector >= ${MIN_PGVECTOR.join('.')} for PostgreSQL ${postgres.major}${found}`);
    }
  }
  const redisServer = which('redis-server');
  if (!redisServer) {
    missing.push(`redis-server >= ${MIN_REDIS.join('.')} on PATH (Debian/Ubuntu package: redis-server)`);
  } else {
    const version = /v=(\S+)/.exec((await run(redisServer, ['--version'])).stdout)?.[1] ?? '0';
    if (!versionAtLeast(version, MIN_REDIS)) missing.push(`redis-server >= ${MIN_REDIS.join('.')} (found ${version})`);
  }
  return { postgres, redisServer, missing };
}

export function findRepoRoot(): string | undefined {
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      const pkg = join(dir, 'package.json');
      try {
        if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'cairn') {
          return dir;
        }
      } catch {
        // unreadable or invalid package.json: keep walking up
      }
      if (dirname(dir) === dir) break;
    }
  }
  return undefined;
}

async function canEscalate(): Promise<boolean> {
  if (isRoot()) return true;
  if (!which('sudo')) return false;
  try {
    return (await run('sudo', ['-n', 'true'], { timeoutMs: 10_000 })).code === 0;
  } catch {
    return false;
  }
}

function missingMessage(missing: string[], extra = ''): string {
  return [
    'Cairn needs local PostgreSQL (with pgvector) and Redis, and some are missing:',
    ...missing.map((m) => `  - ${m}`),
    'Install them with `sudo scripts/install-deps.sh` (Debian/Ubuntu), or by hand:',
    `PostgreSQL >= ${MIN_PG_MAJOR} with pgvector >= ${MIN_PGVECTOR.join('.')}, and Redis >= ${MIN_REDIS.join('.')}.`,
    extra,
  ]
    .filter(Boolean)
    .join('\n');
}

function runInstallScript(script: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // The script's progress goes to our stderr so it never mixes with a caller's stdout protocol.
    const child = spawn('bash', [script], { stdio: ['ignore', process.stderr, process.stderr] });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

/**
 * The installed PostgreSQL, without installing anything (for `npm stop` and `npm run status`,
 * which only look after a server already running); undefined when there is none.
 */
export function findInstalledPostgres(): Promise<PostgresInstall | undefined> {
  return findPostgres();
}

/** Detects (and if possible installs) the system services; returns where they live. */
export async function resolveSystemDependencies(log: Log = silent): Promise<SystemDependencies> {
  let found = await detect();
  if (found.missing.length > 0) {
    const root = findRepoRoot();
    const script = root && join(root, 'scripts', 'install-deps.sh');
    if (!script || !existsSync(script)) {
      throw new MissingDependenciesError(missingMessage(found.missing, '(scripts/install-deps.sh not found)'));
    }
    if (!(await canEscalate())) throw new MissingDependenciesError(missingMessage(found.missing));
    log(`missing: ${found.missing.join('; ')}; running ${script}`);
    const code = await runInstallScript(script);
    if (code !== 0) {
      throw new MissingDependenciesError(missingMessage(found.missing, `(${script} exited with ${code})`));
    }
    found = await detect();
    if (found.missing.length > 0) {
      throw new MissingDependenciesError(missingMessage(found.missing, `(still missing after ${script})`));
    }
  }
  const { postgres, redisServer } = found;
  if (!postgres || !redisServer) throw new MissingDependenciesError(missingMessage(found.missing));
  log(`using PostgreSQL ${postgres.major} from ${postgres.binDir}, ${redisServer}`);
  return { postgres, redisServer };
}
