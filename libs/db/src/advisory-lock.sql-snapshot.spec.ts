import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { LOCK_NAMESPACE, MIGRATION_LOCK_ID } from './advisory-lock.repository';
import { ADVISORY_LOCK_SQL } from './advisory-lock.sql';

/** The migration lock's statements as withAdvisoryLock sends them (libs/db/sql/migration-lock.sql). */
describe('migration advisory lock SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      '-- Migration advisory lock: held by `npm run migrate` (SchemaMigrationService) around every control and tenant',
      '-- migration, on a dedicated connection (withAdvisoryLock, libs/db/src/advisory-lock.repository.ts).',
      `-- $1 = LOCK_NAMESPACE (${LOCK_NAMESPACE}, "CAIR"), $2 = MIGRATION_LOCK_ID (${MIGRATION_LOCK_ID}).`,
      '',
      '-- tryLock: answers at once whether another run holds the lock',
      `${ADVISORY_LOCK_SQL.tryLock};`,
      '',
      '-- lock: only when tryLock said no; waits for the other run to finish',
      `${ADVISORY_LOCK_SQL.lock};`,
      '',
      '-- unlock: after the run, success or failure',
      `${ADVISORY_LOCK_SQL.unlock};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'migration-lock.sql'), text);
  });
});
