import { type Migration } from '@cairn/db';

/**
 * PLACEHOLDER, to be dropped when merging: version 22 is the code index's `0022-code-index.ts`,
 * added on its own branch. Tenant migrations must be dense (assertMigrationSequence), so this
 * branch cannot boot with project cards at 23 and nothing at 22. Never deploy it: a tenant
 * migrated past it would never run the real version 22.
 */
export const reservedForCodeIndex: Migration = {
  version: 22,
  name: 'reserved-for-code-index',
  async up() {
    // Nothing: the code index's migration replaces this file.
  },
};
