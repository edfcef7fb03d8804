/**
 * CPU time per call, by process, for each case of the gateway benchmark. Throughput on a
 * shared 2-core machine moves with everyone else's load; the CPU a call costs each process
 * (the bench process, the gateway, PostgreSQL, Redis) moves much less, and says where a
 * gateway call spends what the in-process call does not. Read from /proc (Linux only; the
 * meter reports nothing elsewhere) at the edges of every measured slice, so the interleaved
 * slices are charged to the case that ran them.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: /proc reports CPU time in these ticks; 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

export const METERED = ['bench', 'gateway', 'postgres', 'redis'] as const;
export type Metered = (typeof METERED)[number];
/** CPU milliseconds of each process (group) so far. */
type Reading = Record<Metered, number>;

interface ProcStat {
  readonly ppid: number;
  /** Own user + system time, in ticks. */
  readonly own: number;
  /** User + system time of children it has reaped (PostgreSQL backends that exited), in ticks. */
  readonly reaped: number;
}

function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may hold spaces: fields are counted after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const tick = (index: number) => Number(fields[index - 3] ?? 0);
  return { ppid: tick(4), own: tick(14) + tick(15), reaped: tick(16) + tick(17) };
}

/** The postmaster and every process it started, backends that already exited included. */
function clusterTicks(postmaster: number): number {
  let ticks = 0;
  const root = procStat(postmaster);
  if (root) ticks += root.own + root.reaped;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === postmaster) continue;
    const stat = procStat(pid);
    if (stat?.ppid === postmaster) ticks += stat.own;
  }
  return ticks;
}

export interface CpuMeterTargets {
  /** The gateway, and the compared one when there is one (a case calls only one of them). */
  readonly gatewayPids: readonly number[];
  /** The PostgreSQL postmaster (see `postmasterOf`). */
  readonly postmasterPid: number | undefined;
  readonly redisPid: number;
}

/**
 * The postmaster of a backend: read while the backend lives (a pool closes idle connections,
 * so its pid is of no use later), its children counted at every reading.
 */
export function postmasterOf(backendPid: number): number | undefined {
  return procStat(backendPid)?.ppid;
}

export class CpuMeter {
  private readonly postmaster: number | undefined;
  private readonly totals = new Map<string, { reading: Reading; calls: number }>();

  constructor(private readonly targets: CpuMeterTargets) {
    this.postmaster = targets.postmasterPid;
  }

  /** False where /proc is missing (not Linux): nothing is metered. */
  get available(): boolean {
    return this.postmaster !== undefined;
  }

  /**
   * Scanning /proc costs the bench process a few milliseconds: its own clock is read after
   * the scan when a slice starts and before it when the slice ends, so no slice pays for it.
   */
  private read(edge: 'start' | 'end'): Reading {
    const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    const own = (pid: number) => ms(procStat(pid)?.own ?? 0);
    const benchMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    const bench = edge === 'end' ? benchMs() : 0;
    const others = {
      gateway: this.targets.gatewayPids.reduce((sum, pid) => sum + own(pid), 0),
      postgres: this.postmaster === undefined ? 0 : ms(clusterTicks(this.postmaster)),
      redis: own(this.targets.redisPid),
    };
    return { ...others, bench: edge === 'start' ? benchMs() : bench };
  }

  /** Starts charging a slice to `name`; the returned function ends it with the calls it completed. */
  start(name: string): (calls: number) => void {
    if (!this.available) return () => undefined;
    const before = this.read('start');
    return (calls) => {
      const after = this.read('end');
      const into = this.totals.get(name) ?? { reading: { bench: 0, gateway: 0, postgres: 0, redis: 0 }, calls: 0 };
      for (const key of METERED) into.reading[key] += after[key] - before[key];
      into.calls += calls;
      this.totals.set(name, into);
    };
  }

  /** CPU milliseconds per call of each case, by process, and their sum; empty when unavailable. */
  perCall(): Record<string, Reading & { total: number; calls: number }> {
    const result: Record<string, Reading & { total: number; calls: number }> = {};
    for (const [name, { reading, calls }] of this.totals) {
      const each = (value: number) => (calls > 0 ? value / calls : Number.NaN);
      const perProcess = Object.fromEntries(METERED.map((key) => [key, each(reading[key])])) as Reading;
      result[name] = { ...perProcess, total: METERED.reduce((sum, key) => sum + perProcess[key], 0), calls };
    }
    return result;
  }
}
