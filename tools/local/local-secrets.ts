import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  readonly adminToken: string;
  readonly masterKey: string;
}

/**
 * Development secrets for `npm start`, generated once and kept (0600) in the state dir so
 * restarts keep the same admin token and can still decrypt what they encrypted.
 */
export function loadOrCreateLocalSecrets(stateDir: string): LocalSecrets {
  const file = join(stateDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  const secrets: LocalSecrets = {
    adminToken: `cairn_pa_${randomBytes(32).toString('base64url')}`,
    masterKey: randomBytes(32).toString('base64'),
  };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}
