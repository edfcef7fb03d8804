import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * The captured output, at most `maxBytes`: the first half and the last half of what the command
 * printed (a build log is read for how it started and how it ended), and how much was cut.
 */
export class HeadTail {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headRoom = Math.ceil(this.maxBytes / 2) - this.headBytes;
    if (headRoom > 0) {
      this.head.push(chunk.subarray(0, headRoom));
      this.headBytes += Math.min(headRoom, chunk.length);
      chunk = chunk.subarray(headRoom);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    const tailMax = Math.floor(this.maxBytes / 2);
    while (this.tailBytes - this.tail[0].length >= tailMax) this.tailBytes -= this.tail.shift()!.length;
    if (this.tailBytes > tailMax) {
      this.tail[0] = this.tail[0].subarray(this.tailBytes - tailMax);
      this.tailBytes = tailMax;
    }
  }

  get cutBytes(): number {
    return this.total - this.headBytes - this.tailBytes;
  }

  text(): string {
    if (this.cutBytes === 0) return Buffer.concat([...this.head, ...this.tail]).toString('utf8');
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return `${head}\n[… ${this.cutBytes} bytes cut by cairn exec --max-output …]\n${tail}`;
  }
}

export interface LimitedRunOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly timeoutMs: number;
  /** Between SIGTERM and SIGKILL to the group. */
  readonly graceMs: number;
  readonly maxOutputBytes: number;
  /** Where the command's stdout and stderr stream as it runs. */
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export interface LimitedRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  /** The signal cairn itself got (Ctrl-C, a supervisor's SIGTERM) and passed on to the group. */
  readonly interrupted?: NodeJS.Signals;
  readonly durationMs: number;
  readonly output: HeadTail;
  /** The command could not be started (spawn's error code, e.g. EACCES). */
  readonly spawnError?: NodeJS.ErrnoException;
}

/** After the command exits, how long its pipes may stay open (a daemon that left the group). */
const DRAIN_MS = 2_000;
const FORWARDED: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs a command as the leader of its own process group (detached: a new session), so a timeout
 * or cairn's own interruption reaches everything it started: SIGTERM to the group, SIGKILL after
 * the grace. When the command exits, what it left running in the group is killed too. stdin is
 * /dev/null: the command runs unattended, for an agent.
 */
export function runLimited(options: LimitedRunOptions): Promise<LimitedRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const output = new HeadTail(options.maxOutputBytes);
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let interrupted: NodeJS.Signals | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let spawnError: NodeJS.ErrnoException | undefined;
    const timers: NodeJS.Timeout[] = [];

    const killGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, signal);
      } catch {
        // ESRCH: the group is gone already.
      }
    };
    const terminate = () => {
      killGroup('SIGTERM');
      timers.push(setTimeout(() => killGroup('SIGKILL'), options.graceMs).unref());
    };
    const onSignal = (signal: NodeJS.Signals) => {
      interrupted ??= signal;
      terminate();
    };
    for (const signal of FORWARDED) process.on(signal, onSignal);
    timers.push(
      setTimeout(() => {
        if (exit) return;
        timedOut = true;
        terminate();
      }, options.timeoutMs),
    );

    for (const [stream, sink] of [
      [child.stdout, options.stdout],
      [child.stderr, options.stderr],
    ] as const) {
      stream.on('data', (chunk: Buffer) => {
        sink.write(chunk);
        output.push(chunk);
      });
    }

    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      for (const timer of timers) clearTimeout(timer);
      for (const signal of FORWARDED) process.off(signal, onSignal);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        exitCode: exit?.code ?? null,
        signal: exit?.signal ?? null,
        timedOut,
        interrupted,
        durationMs: Math.round(performance.now() - started),
        output,
        spawnError,
      });
    };
    child.once('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
      finish();
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the command left behind in its group goes with it.
      killGroup('SIGKILL');
      timers.push(setTimeout(finish, DRAIN_MS));
    });
    child.once('close', finish);
  });
}

/** The shell's convention for a process killed by a signal: 128 + its number. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}
