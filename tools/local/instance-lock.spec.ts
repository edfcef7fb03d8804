import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acquireInstanceLock,
  AlreadyRunningError,
  clearStaleRecord,
  type LauncherRecord,
  launcherRecordFile,
  readLauncherStatus,
} from './instance-lock';
import { processStartTicks } from './util';

const initial = { host: '127.0.0.1', ports: { api: 8080, mcp: 8081, worker: 8082 }, apps: [] };

function recordOf(pid: number, startTicks: string | undefined): LauncherRecord {
  return { pid, startTicks, startedAt: new Date().toISOString(), state: 'ready', ...initial };
}

/** A real process to stand for another launcher: alive until killed. */
function otherProcess(): ChildProcess {
  return spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
}

async function killed(child: ChildProcess): Promise<void> {
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await new Promise((done) => child.once('exit', done));
}

describe('one launcher per state dir', () => {
  let dir: string;
  const children: ChildProcess[] = [];
  const onStale = jest.fn(() => Promise.resolve());

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-lock-'));
    onStale.mockClear();
  });
  afterEach(async () => {
    await Promise.all(children.splice(0).map(killed));
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (record: LauncherRecord) => writeFileSync(launcherRecordFile(dir), JSON.stringify(record));

  it('records this launcher, keeps its updates whole, and removes the record on release', async () => {
    const lock = await acquireInstanceLock(dir, initial, onStale);
    expect(readLauncherStatus(dir)).toEqual({ kind: 'running', record: lock.record });
    expect(lock.record).toMatchObject({
      pid: process.pid,
      state: 'starting',
      startTicks: processStartTicks(process.pid),
    });

    lock.update({ state: 'ready', services: { postgresPort: 54329, redisPort: 63799 } });
    const onDisk = JSON.parse(readFileSync(launcherRecordFile(dir), 'utf8')) as LauncherRecord;
    expect(onDisk).toMatchObject({ state: 'ready', services: { postgresPort: 54329, redisPort: 63799 } });
    expect(readdirSync(dir)).toEqual(['launcher.json']);

    lock.release();
    expect(readLauncherStatus(dir)).toEqual({ kind: 'none' });
    // A stop asked for just as it exits does not bring the record back.
    lock.update({ state: 'stopping' });
    expect(readdirSync(dir)).toEqual([]);
    expect(onStale).not.toHaveBeenCalled();
  });

  it('refuses while another launcher runs, naming it, and leaves its record alone', async () => {
    const other = otherProcess();
    children.push(other);
    const record = recordOf(other.pid!, processStartTicks(other.pid!));
    write(record);

    await expect(acquireInstanceLock(dir, initial, onStale)).rejects.toEqual(new AlreadyRunningError(record));
    await expect(acquireInstanceLock(dir, initial, onStale)).rejects.toMatchObject({ record });
    expect(readLauncherStatus(dir)).toEqual({ kind: 'running', record });
    expect(onStale).not.toHaveBeenCalled();
  });

  it('takes over the record of a launcher killed with -9, after handing it to onStale', async () => {
    const other = otherProcess();
    const record = recordOf(other.pid!, processStartTicks(other.pid!));
    write(record);
    await killed(other);
    expect(readLauncherStatus(dir)).toEqual({ kind: 'stale', record });

    const lock = await acquireInstanceLock(dir, initial, onStale);
    expect(onStale).toHaveBeenCalledTimes(1);
    expect(onStale).toHaveBeenCalledWith(record);
    expect(readLauncherStatus(dir)).toEqual({ kind: 'running', record: lock.record });
    lock.release();
  });

  it('does not take a live process that reused the pid for the launcher that is gone', async () => {
    const other = otherProcess();
    children.push(other);
    const record = recordOf(other.pid!, 'not-its-start-time');
    write(record);
    expect(readLauncherStatus(dir)).toEqual({ kind: 'stale', record });
    const lock = await acquireInstanceLock(dir, initial, onStale);
    expect(onStale).toHaveBeenCalledWith(record);
    lock.release();
  });

  it('replaces an unreadable record once it is clearly not one being written', async () => {
    writeFileSync(launcherRecordFile(dir), '{"pid": 12');
    const old = new Date(Date.now() - 60_000);
    utimesSync(launcherRecordFile(dir), old, old);
    const lock = await acquireInstanceLock(dir, initial, onStale);
    expect(lock.record.pid).toBe(process.pid);
    expect(onStale).not.toHaveBeenCalled();
    lock.release();
  });

  it('lets exactly one of two racing launchers break a stale record and start', async () => {
    const other = otherProcess();
    write(recordOf(other.pid!, processStartTicks(other.pid!)));
    await killed(other);
    const slowStale = jest.fn(() => new Promise<void>((done) => setTimeout(done, 300)));

    const outcomes = await Promise.allSettled([
      acquireInstanceLock(dir, initial, slowStale),
      acquireInstanceLock(dir, initial, slowStale),
    ]);
    expect(slowStale).toHaveBeenCalledTimes(1);
    const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(won).toHaveLength(1);
    expect(refused).toEqual([expect.any(AlreadyRunningError)]);
    expect(readdirSync(dir)).toEqual(['launcher.json']);
  });

  it('release leaves a record that is no longer this launcher’s', async () => {
    const lock = await acquireInstanceLock(dir, initial, onStale);
    const other = otherProcess();
    children.push(other);
    const record = recordOf(other.pid!, processStartTicks(other.pid!));
    write(record);
    lock.release();
    expect(readLauncherStatus(dir)).toEqual({ kind: 'running', record });
  });

  it('npm stop clears a stale record after its leftovers, but not one a new launcher wrote meanwhile', async () => {
    const gone = otherProcess();
    const stale = recordOf(gone.pid!, processStartTicks(gone.pid!));
    write(stale);
    await killed(gone);
    await clearStaleRecord(dir, stale, onStale);
    expect(onStale).toHaveBeenCalledWith(stale);
    expect(readLauncherStatus(dir)).toEqual({ kind: 'none' });

    onStale.mockClear();
    const live = otherProcess();
    children.push(live);
    const current = recordOf(live.pid!, processStartTicks(live.pid!));
    write(current);
    await clearStaleRecord(dir, stale, onStale);
    expect(onStale).not.toHaveBeenCalled();
    expect(readLauncherStatus(dir)).toEqual({ kind: 'running', record: current });
  });
});
