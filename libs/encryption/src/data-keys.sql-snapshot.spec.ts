import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { KEY_ROTATION_LOCK_ID } from './data-keys.repository';
import { DATA_KEYS_SQL } from './data-keys.sql';

/** The data-key statements as DataKeysRepository sends them (libs/encryption/sql/data-keys.sql). */
describe('tenant data key SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      '-- Tenant data keys (control schema), read and written by DataKeysRepository',
      '-- (libs/encryption/src/data-keys.repository.ts) for EnvelopeEncryption and MasterKeyRotation.',
      `-- npm run keys:rotate holds advisory lock (LOCK_NAMESPACE, ${KEY_ROTATION_LOCK_ID}) around the whole run.`,
      ...Object.entries(DATA_KEYS_SQL).flatMap(([name, sql]) => ['', `-- ${name}`, `${sql};`]),
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'data-keys.sql'), text);
  });
});
