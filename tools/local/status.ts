/**
 * `npm run status`: whether the stack `npm start` runs from this clone's state dir is up, and
 * each app's readiness, on stdout. Exit 0 when it runs and every app is ready, 1 when it runs
 * but an app is not ready, 3 when it is not running (as LSB `status` commands do).
 */
import { findRepoRoot } from './deps';
import { readLauncherStatus } from './instance-lock';
import { APPS } from './local-apps';
import { persistentServicesState } from './services';
import { describeStateDir, localStateDir } from './state-dir';
import { isSameProcess } from './util';

const NOT_RUNNING = 3;

/** The app's `/readyz` in a few words. */
async function readiness(origin: string): Promise<{ ready: boolean; text: string }> {
  try {
    const response = await fetch(`${origin}/readyz`, {
      signal: AbortSignal.timeout(3_000),
    });
    const body = (await response.json().catch(() => ({}))) as { status?: string; degraded?: string[] };
    const degraded = body.degraded?.length ? ` (degraded: ${body.degraded.join(', ')})` : '';
    return {
      ready: response.ok,
      text: response.ok ? `ready${degraded}` : `not ready (${body.status ?? response.status})`,
    };
  } catch {
    return { ready: false, text: 'not answering' };
  }
}

async function main(): Promise<number> {
  const root = findRepoRoot() ?? process.cwd();
  const stateDir = localStateDir(root);
  const where = describeStateDir(root, stateDir);
  const status = readLauncherStatus(stateDir);
  const out: string[] = [];
  let code = NOT_RUNNING;

  if (status.kind === 'running') {
    const { record } = status;
    out.push(`Cairn is running from ${where}: launcher pid ${record.pid}, since ${record.startedAt} (${record.state})`);
    // An app bound to every interface is reached, and shown, on the loopback one.
    const host = record.host === '0.0.0.0' || record.host === '::' ? '127.0.0.1' : record.host;
    const origins = [record.ports.api, record.ports.mcp, record.ports.worker].map(
      (port) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    );
    const checks = await Promise.all(origins.map(readiness));
    APPS.forEach((app, i) => {
      const path = app.name === 'mcp-gateway' ? '/mcp' : '';
      out.push(`  ${app.name.padEnd(12)} ${origins[i]}${path}  ${checks[i].text}`);
    });
    if (record.services) {
      out.push(`  ${'postgres'.padEnd(12)} 127.0.0.1:${record.services.postgresPort}`);
      out.push(`  ${'redis'.padEnd(12)} 127.0.0.1:${record.services.redisPort}`);
    }
    code = checks.every((check) => check.ready) ? 0 : 1;
  } else {
    const services = await persistentServicesState(stateDir);
    const left = [
      ...(status.kind === 'stale'
        ? status.record.apps
            .filter((app) => isSameProcess(app.pid, app.startTicks))
            .map((app) => `${app.name} (pid ${app.pid})`)
        : []),
      ...(services.postgres !== undefined ? [`PostgreSQL (port ${services.postgres})`] : []),
      ...(services.redis !== undefined ? [`Redis (port ${services.redis})`] : []),
    ];
    out.push(
      status.kind === 'stale'
        ? `Cairn is not running from ${where}: its launcher (pid ${status.record.pid}) ended without stopping`
        : `Cairn is not running from ${where}`,
    );
    if (left.length > 0) {
      out.push(`  still running: ${left.join(', ')}`);
      out.push('  `npm stop` stops them (`npm start` would restart the apps and reuse the rest)');
    } else {
      out.push('  start it with `npm start`');
    }
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return code;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[cairn] could not read the status: ${(error as Error).message}\n`);
    process.exit(NOT_RUNNING);
  },
);
