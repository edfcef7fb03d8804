import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveSystemDependencies } from '../../../tools/local/deps';
import {
  makeServerDir,
  type PostgresLayout,
  startPostgres,
  stopPostgres,
  stopPostgresSync,
} from '../../../tools/local/postgres';
import { freePort } from './process-harness';

/**
 * A PostgreSQL of the test's own (pgvector included), which it may restart without
 * disturbing the other test files on the shared server: `restart()` is a fast shutdown
 * (connections are terminated with 57P01, as in an operator's restart) and a start on the
 * same port from the same data directory.
 */
export class DedicatedPostgres {
  private readonly forgetOnExit: () => void;

  private constructor(
    private readonly install: Awaited<ReturnType<typeof resolveSystemDependencies>>['postgres'],
    private readonly base: string,
    private readonly layout: PostgresLayout,
    readonly port: number,
    readonly url: string,
  ) {
    const onExit = () => stopPostgresSync(install, layout);
    process.once('exit', onExit);
    this.forgetOnExit = () => process.removeListener('exit', onExit);
  }

  static async create(): Promise<DedicatedPostgres> {
    const deps = await resolveSystemDependencies();
    const base = mkdtempSync(join(tmpdir(), 'cairn-fault-pg-'));
    makeServerDir(base, 0o700);
    const layout = { dataDir: join(base, 'pg'), socketDir: join(base, 'run'), logFile: join(base, 'postgres.log') };
    const port = await freePort();
    const started = await startPostgres(deps.postgres, { layout, port, ephemeral: false, log: () => undefined });
    return new DedicatedPostgres(deps.postgres, base, layout, port, started.databaseUrl);
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  /** `pg_ctl stop -m fast`: sessions are terminated (57P01), then connections are refused. */
  async stop(): Promise<void> {
    await stopPostgres(this.install, this.layout, 'fast');
  }

  /** Starts it again on the same port from the same data directory. */
  async start(): Promise<void> {
    await startPostgres(this.install, { layout: this.layout, port: this.port, ephemeral: false, log: () => undefined });
  }

  async destroy(): Promise<void> {
    await stopPostgres(this.install, this.layout, 'immediate').catch(() => undefined);
    this.forgetOnExit();
    rmSync(this.base, { recursive: true, force: true });
  }
}
