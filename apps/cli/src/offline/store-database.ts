import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { type DatabaseSync, sqlite } from './sqlite';
import { migrateStore } from './store-schema';

/** The one file of the offline cache and write queue, under the user's cache directory. */
export const STORE_FILE = 'offline.sqlite';

/** How long a statement waits for another process's write lock (the bridge and hooks share the file). */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Opens (creating if needed) `<cacheDir>/offline.sqlite`: the directory 0700 and the file 0600
 * before SQLite touches it (its -wal and -shm files take the database file's mode), WAL so a
 * hook reads while the bridge writes, a busy timeout instead of "database is locked", and the
 * schema brought up to date.
 */
export function openStoreDatabase(cacheDir: string): DatabaseSync {
  mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
  chmodSync(cacheDir, 0o700);
  const file = join(cacheDir, STORE_FILE);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const { DatabaseSync } = sqlite();
  const db = new DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    migrateStore(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Runs `work` in one write transaction. IMMEDIATE takes the write lock at BEGIN, so two
 * processes never both read and then fail to upgrade (SQLITE_BUSY without waiting).
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
