import { randomBytes } from 'node:crypto';

let key: string | undefined;

/**
 * The master key of every app one benchmark run starts (base64). The benchmarks share one
 * database, and an app refuses to start when data keys in it are wrapped by a master key it lacks
 * (libs/encryption): with a key per app, a benchmark that starts its apps after another's tenants
 * exist (the fleet, last) was refused. One key per run, never written anywhere.
 */
export function benchMasterKey(): string {
  key ??= randomBytes(32).toString('base64');
  return key;
}
