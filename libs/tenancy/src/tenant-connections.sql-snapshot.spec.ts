import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { moveLockKey } from './tenant-connections.repository';
import { TENANT_CONNECTIONS_SQL, transactionOpeningSql } from './tenant-connections.sql';

/**
 * The first statement of a tenant transaction in each of its shapes, compared with
 * libs/tenancy/sql/tenant-transaction-opening.sql (`npm run snapshots` rewrites it). The generated
 * tenant-connections.repository.sql shows it as the snapshot database runs it, without the move
 * lock (no member clusters there); this file shows the shapes placement adds. No database needed.
 */
/** Each shape the file shows, with what it is for. */
const SHAPES: readonly (readonly [string, string])[] = [
  ["placement on, the tenant's search path (every TenantTransaction.run)", transactionOpeningSql(true, 1)],
  [
    "placement on, the search path and a semantic recall's hnsw.iterative_scan and hnsw.ef_search",
    transactionOpeningSql(true, 3),
  ],
  ['placement on, no settings (the audit chain, outside TenantTransaction)', transactionOpeningSql(true, 0)],
  ['placement off, the search path (without settings nothing is sent)', transactionOpeningSql(false, 1)],
  [
    'placement off, two settings; also how a nested TenantTransaction.run adds its own',
    transactionOpeningSql(false, 2),
  ],
  [
    'after a failure on a missing name: is the schema on this cluster (or was the tenant deleted, or moved away)?',
    TENANT_CONNECTIONS_SQL.schemaExists,
  ],
];

describe('the opening statement of a tenant transaction', () => {
  it('renders every shape as committed', () => {
    const key = moveLockKey('<tenant id>');
    const text = [
      '-- The first statement of every tenant transaction (TenantConnections.transaction,',
      '-- libs/tenancy/src/tenant-connections.repository.ts): the move lock and the transaction-local',
      '-- settings in one round trip. Placement on (DATABASE_CLUSTERS set) adds the lock; `unfrozen` is',
      '-- false while TenantMover holds it or waits for it, and the transaction then answers 503.',
      `-- $1 = the move lock's key, ${JSON.stringify(key)}, when there is a lock; then each setting's name and value.`,
      ...SHAPES.flatMap(([what, statement]) => ['', `-- ${what}`, `${statement};`]),
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'tenant-transaction-opening.sql'), text);
  });

  it('keeps the lock first and numbers the settings after it', () => {
    expect(transactionOpeningSql(true, 1)).toBe(
      'SELECT pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) AS unfrozen, set_config($2, $3, true)',
    );
    expect(transactionOpeningSql(false, 2)).toBe('SELECT set_config($1, $2, true), set_config($3, $4, true)');
  });
});
