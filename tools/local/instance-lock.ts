import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSameProcess, processStartTicks, sleep } from './util';

/**
 * One `npm start` per state directory (per clone, by default). The running launcher is written
 * down in `<stateDir>/launcher.json`: who it is (pid and start time, so a pid reused after a
 * kill -9 is not taken for it), where its apps listen and which processes it runs, for
 * `npm stop`, `npm run status` and a second `npm start`, which refuses instead of fighting the
 * first one for its ports and services.
 */
export interface LauncherRecord {
  readonly pid: number;
  readonly startTicks: string | undefined;
  readonly startedAt: string;
  readonly state: 'starting' | 'ready' | 'stopping';
  /** Where the apps listen. */
  readonly host: string;
  readonly ports: { readonly api: number; readonly mcp: number; readonly worker: number };
  /** The apps it spawned (how a stale record's leftovers are found: pid and start time). */
  readonly apps: readonly { readonly name: string; readonly pid: number; readonly startTicks: string | undefined }[];
  /** The local PostgreSQL and Redis it runs under the state dir; absent while starting or when the URLs were given. */
  readonly services?: { readonly postgresPort: number; readonly redisPort: number };
}

export type LauncherStatus =
  | { readonly kind: 'none' }
  | { readonly kind: 'running'; readonly record: LauncherRecord }
  /** The record of a launcher that ended without removing it (kill -9, a crash, a reboot). */
  | { readonly kind: 'stale'; readonly record: LauncherRecord };

export class AlreadyRunningError extends Error {
  constructor(readonly record: LauncherRecord) {
    super(`a launcher (pid ${record.pid}) is already running`);
    this.name = 'AlreadyRunningError';
  }
}

const RECORD = 'launcher.json';
/** Held (created exclusively) by whoever is removing a stale record, so two newcomers cannot both. */
const BREAKING = 'launcher.json.breaking';
/** How long `npm stop` waits for another process to finish breaking a stale record. */
const BREAKING_WAIT_MS = 120_000;
/** A record being written is complete within this; an unreadable one older than that is debris. */
const WRITE_GRACE_MS = 2_000;

export function launcherRecordFile(stateDir: string): string {
  return join(stateDir, RECORD);
}

/** The launcher of `stateDir`: none, one that is running, or the record of one that is gone. */
export function readLauncherStatus(stateDir: string): LauncherStatus {
  const record = readRecord(launcherRecordFile(stateDir));
  if (record === undefined || record === 'unreadable') return { kind: 'none' };
  return isSameProcess(record.pid, record.startTicks) ? { kind: 'running', record } : { kind: 'stale', record };
}

function readRecord(file: string): LauncherRecord | 'unreadable' | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const record = JSON.parse(text) as LauncherRecord;
    return Number.isInteger(record.pid) && record.pid > 0 ? record : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Writes the whole record to a file of its own first, so a reader never sees half of one. */
function writeTemporary(stateDir: string, record: LauncherRecord): string {
  const temporary = join(stateDir, `${RECORD}.${process.pid}.tmp`);
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  return temporary;
}

export interface InstanceLock {
  readonly record: LauncherRecord;
  /** Rewrites the record whole; nothing once released. */
  update(change: Partial<Omit<LauncherRecord, 'pid' | 'startTicks'>>): void;
  /** Removes the record, if it is still this launcher's. */
  release(): void;
}

/**
 * Takes the state dir for this process. A running launcher's record makes it throw
 * AlreadyRunningError; a stale record is handed to `onStale` (to stop what that launcher left
 * running) and then replaced. `link` creates the record atomically, and fails if one exists.
 */
export async function acquireInstanceLock(
  stateDir: string,
  initial: Omit<LauncherRecord, 'pid' | 'startTicks' | 'startedAt' | 'state'>,
  onStale: (stale: LauncherRecord) => Promise<void>,
): Promise<InstanceLock> {
  const file = launcherRecordFile(stateDir);
  let record: LauncherRecord = {
    pid: process.pid,
    startTicks: processStartTicks(process.pid),
    startedAt: new Date().toISOString(),
    state: 'starting',
    ...initial,
  };
  for (;;) {
    const temporary = writeTemporary(stateDir, record);
    try {
      linkSync(temporary, file);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(temporary);
    }
    const existing = readRecord(file);
    if (existing === undefined) continue;
    if (existing !== 'unreadable' && isSameProcess(existing.pid, existing.startTicks)) {
      throw new AlreadyRunningError(existing);
    }
    if (existing === 'unreadable' && Date.now() - modifiedAt(file) < WRITE_GRACE_MS) {
      await sleep(100);
      continue;
    }
    if (!(await breakStaleRecord(stateDir, existing === 'unreadable' ? undefined : existing, onStale))) {
      await sleep(100);
    }
  }
  let released = false;
  const lock: InstanceLock = {
    get record() {
      return record;
    },
    update(change) {
      // A late update must not write back a record that has been released.
      if (released) return;
      record = { ...record, ...change };
      renameSync(writeTemporary(stateDir, record), file);
    },
    release() {
      released = true;
      const current = readRecord(file);
      if (current !== undefined && current !== 'unreadable' && current.pid !== record.pid) return;
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
  return lock;
}

/**
 * Removes a dead launcher's record once `onStale` has dealt with its leftovers, holding a claim
 * so that two newcomers (two `npm start`, or one and `npm stop`) never both do. Returns false
 * when another holds the claim (look again shortly), true when the record is gone or replaced.
 */
async function breakStaleRecord(
  stateDir: string,
  stale: LauncherRecord | undefined,
  onStale: (stale: LauncherRecord) => Promise<void>,
): Promise<boolean> {
  const file = launcherRecordFile(stateDir);
  const claim = join(stateDir, BREAKING);
  try {
    writeFileSync(claim, `${process.pid} ${processStartTicks(process.pid) ?? ''}`, { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // A breaker that died holding its claim would block everyone: a dead one's claim is void.
    if (!claimHolderAlive(claim)) unlinkIfPresent(claim);
    return false;
  }
  try {
    // Still the same dead launcher's record? Someone may have replaced it since it was read.
    const now = readRecord(file);
    const same =
      now === 'unreadable'
        ? stale === undefined
        : now !== undefined && stale !== undefined && now.pid === stale.pid && now.startTicks === stale.startTicks;
    if (!same) return true;
    if (stale) await onStale(stale);
    unlinkIfPresent(file);
    return true;
  } finally {
    unlinkIfPresent(claim);
  }
}

/**
 * `npm stop` with a dead launcher's record: `onStale` stops what it left running, then the
 * record goes, unless a launcher took the state dir over meanwhile (then nothing is touched).
 */
export async function clearStaleRecord(
  stateDir: string,
  stale: LauncherRecord,
  onStale: (stale: LauncherRecord) => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + BREAKING_WAIT_MS;
  while (!(await breakStaleRecord(stateDir, stale, onStale))) {
    if (Date.now() > deadline) throw new Error(`${join(stateDir, BREAKING)} is held by another process`);
    await sleep(100);
  }
}

function claimHolderAlive(claim: string): boolean {
  let text: string;
  try {
    text = readFileSync(claim, 'utf8');
  } catch {
    return true; // gone already: nothing to void
  }
  const [pid, ticks] = text.split(' ');
  // Empty: its holder has created it and is writing its pid this very moment.
  if (!pid) return Date.now() - modifiedAt(claim) < WRITE_GRACE_MS;
  return isSameProcess(Number(pid), ticks || undefined);
}

function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

function unlinkIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
