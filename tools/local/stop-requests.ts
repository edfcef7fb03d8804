/**
 * The ways a running launcher is asked to stop: SIGINT (Ctrl-C on a terminal reaches the whole
 * foreground process group; npm forwards the one it gets), SIGTERM (`npm stop`, kill, npm
 * forwarding its own) and SIGHUP (the terminal went away). The first one counts; each phase of
 * start-up registers what stopping means for it (kill the migration, SIGTERM the apps).
 */
export class StopRequests {
  private signal: NodeJS.Signals | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly say: (line: string) => void) {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => this.request(signal));
  }

  get requested(): boolean {
    return this.signal !== undefined;
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

  private request(signal: NodeJS.Signals): void {
    if (this.signal) {
      // A terminal's Ctrl-C reaches npm too, which forwards it: the same stop, asked twice.
      if (signal !== this.signal) this.say(`${signal}: already stopping (the apps drain in-flight requests first)`);
      return;
    }
    this.signal = signal;
    this.say(`${signal}: stopping everything this launcher started…`);
    for (const stop of [...this.listeners]) stop();
  }
}
