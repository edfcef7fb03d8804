/**
 * The ways a running launcher is asked to stop: SIGINT (Ctrl-C on a terminal reaches the whole
 * foreground process group; npm forwards the one it gets), SIGTERM (`npm stop`, kill, npm
 * forwarding its own), SIGHUP (the terminal went away), and, under `npm start`, npm's end however
 * it came (npm forwards only SIGINT and SIGTERM: another signal, SIGKILL included, ends npm alone
 * and would leave the stack running with no command to stop it by). The first one counts; each
 * phase of start-up registers what stopping means for it (kill the migration, SIGTERM the apps).
 */
export class StopRequests {
  private reason: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly say: (line: string) => void) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => this.request(signal));
  }

  get requested(): boolean {
    return this.reason !== undefined;
  }

  /** Stops when the parent process (npm) is gone: this process was handed to another parent. */
  watchParent(): void {
    const parent = process.ppid;
    const timer = setInterval(() => {
      if (process.ppid === parent) return;
      clearInterval(timer);
      this.request(`npm (pid ${parent}) has ended`);
    }, 500);
    timer.unref();
  }

  /** Runs `stop` on the first request (at once if one came already); returns how to unregister it. */
  onStop(stop: () => void): () => void {
    if (this.requested) {
      stop();
      return () => undefined;
    }
    this.listeners.add(stop);
    return () => this.listeners.delete(stop);
  }

  private request(reason: string): void {
    if (this.reason) {
      // A terminal's Ctrl-C reaches npm too, which forwards it: the same stop, asked twice.
      if (reason !== this.reason) this.say(`${reason}: already stopping (the apps drain in-flight requests first)`);
      return;
    }
    this.reason = reason;
    this.say(`${reason}: stopping everything this launcher started…`);
    for (const stop of [...this.listeners]) stop();
  }
}
