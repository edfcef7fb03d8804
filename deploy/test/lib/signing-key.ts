import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A throwaway OpenPGP key, as CI makes one, in the legacy keyring files helm reads. */
export interface SigningKey {
  readonly name: string;
  /** `gpg --export-secret-keys` output: what `helm package --sign --keyring` takes. */
  readonly secring: string;
  /** `gpg --export` output: what users give `helm verify --keyring`. */
  readonly pubring: string;
}

/**
 * Makes a key without a passphrase (batch mode) in its own GNUPGHOME under `dir`, never the
 * user's keyrings. RSA, which every OpenPGP reader helm has used understands.
 */
export function throwawaySigningKey(dir: string, name: string): SigningKey {
  const home = join(dir, 'gnupg');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const gpg = (args: string[]) =>
    execFileSync('gpg', ['--batch', '--pinentry-mode', 'loopback', '--passphrase', '', ...args], {
      env: { ...process.env, GNUPGHOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  gpg(['--quick-generate-key', `${name} <chart-signing@cairn.invalid>`, 'rsa3072', 'sign', '1d']);
  const secring = join(dir, 'secring.gpg');
  const pubring = join(dir, 'pubring.gpg');
  writeFileSync(secring, gpg(['--export-secret-keys', name]));
  writeFileSync(pubring, gpg(['--export', name]));
  return { name, secring, pubring };
}
