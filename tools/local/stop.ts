/**
 * `npm stop`: stops the stack `npm start` runs from this clone's state dir, whatever state it is
 * in. A running launcher gets SIGTERM and stops everything it started (its apps drain first);
 * a launcher that died without stopping (kill -9, a crash) left a stale record, and then this
 * stops what it left running; with no launcher at all, it stops the state dir's PostgreSQL and
 * Redis if they were left running. Exit 0 once nothing runs, 1 if something would not stop.
 */
import { findRepoRoot } from './deps';
import { clearStaleRecord, readLauncherStatus } from './instance-lock';
import { stopLeftoverApps } from './local-apps';
import { stopPersistentServices } from './services';
import { describeStateDir, localStateDir } from './state-dir';
import { isSameProcess, sleep } from './util';

const say = (line: string) => process.stderr.write(`[cairn] ${line}\n`);

/** The apps' drain deadline (25 s by default), then PostgreSQL's and Redis' shutdown, with room to spare. */
const LAUNCHER_STOP_MS = 120_000;
const LEFTOVER_DRAIN_MS = 30_000;

async function main(): Promise<number> {
  const root = findRepoRoot() ?? process.cwd();
  const stateDir = localStateDir(root);
  const where = describeStateDir(root, stateDir);
  const status = readLauncherStatus(stateDir);

  if (status.kind === 'running') {
    const { pid, startTicks } = status.record;
    say(`stopping Cairn (launcher pid ${pid}, running from ${where})…`);
    try {
      process.kill(pid, 'SIGTERM');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EPERM') {
        say(`launcher pid ${pid} belongs to another user: stop it as that user`);
        return 1;
      }
      throw error;
    }
    const deadline = Date.now() + LAUNCHER_STOP_MS;
    let reported = Date.now();
    while (isSameProcess(pid, startTicks)) {
      if (Date.now() > deadline) {
        say(`launcher pid ${pid} has not stopped within ${LAUNCHER_STOP_MS / 1000} s; its output says why`);
        return 1;
      }
      if (Date.now() - reported >= 10_000) {
        reported = Date.now();
        say('still stopping (the apps drain in-flight requests, then PostgreSQL and Redis shut down)…');
      }
      await sleep(200);
    }
    say('stopped');
    return 0;
  }

  if (status.kind === 'stale') {
    say(`the launcher recorded in ${where} (pid ${status.record.pid}) ended without stopping; stopping what it left`);
    let stopped: string[] = [];
    await clearStaleRecord(stateDir, status.record, async (stale) => {
      stopped = [
        ...(await stopLeftoverApps(stale.apps, LEFTOVER_DRAIN_MS)),
        ...(await stopPersistentServices(stateDir)),
      ];
    });
    say(stopped.length > 0 ? `stopped ${stopped.join(', ')}` : 'nothing of it was still running');
    return 0;
  }

  const stopped = await stopPersistentServices(stateDir);
  say(
    stopped.length > 0
      ? `no launcher was running from ${where}; stopped what was left running there: ${stopped.join(', ')}`
      : `Cairn is not running from ${where}`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(`could not stop: ${(error as Error).message}`);
    process.exit(1);
  },
);
