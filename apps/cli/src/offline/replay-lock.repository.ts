import { type DatabaseSync } from './sqlite';

/**
 * One replayer at a time per identity. The bridge, `cairn sync` and the hooks all replay the
 * same queue, often at the same moment (a session starts: the bridge's first sync and the
 * SessionStart hook). Each write is safe to repeat on its own, but two replayers would repeat
 * an earlier write AFTER a later one (a working-memory key set back to its older value, a
 * capture replacing the newer capture of its source): order is what the lock keeps. It is a
 * lease, so a replayer killed mid-way holds it only until it expires.
 */
export class ReplayLockRepository {
  constructor(
    private readonly db: DatabaseSync,
    private readonly identityId: number,
  ) {}

  /** Takes the lease for `holder`, or renews it; false while another holder's lease runs. */
  acquire(holder: string, ttlMs: number, now = Date.now()): boolean {
    const result = this.db
      .prepare(
        `INSERT INTO replay_locks (identity_id, holder, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (identity_id) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
         WHERE replay_locks.holder = excluded.holder OR replay_locks.expires_at <= ?`,
      )
      .run(this.identityId, holder, now + ttlMs, now);
    return Number(result.changes) > 0;
  }

  /** Gives the lease up (only `holder`'s own). */
  release(holder: string): void {
    this.db.prepare('DELETE FROM replay_locks WHERE identity_id = ? AND holder = ?').run(this.identityId, holder);
  }
}
