import { type Environment } from '../../settings/paths';

/**
 * Variables a command gets without asking: what shells, compilers and test runners need to find
 * programs, write temporary files and print in the user's language. Anything else (tokens, cloud
 * credentials, CAIRN_TOKEN itself) stays behind unless named with --env.
 */
const ALLOWED = new Set([
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TERM',
  'TMPDIR',
  'TZ',
  'PWD',
]);
/** LC_ALL, LC_CTYPE…: locale only, never secret. */
const ALLOWED_PREFIX = /^LC_[A-Z_]+$/;
/** --env NAME: a shell variable name; NAME=value is refused so values never appear in the process list. */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface StrippedEnvironment {
  readonly env: Record<string, string>;
  /** Names given with --env that are not set: reported, since a missing variable often explains a failure. */
  readonly missing: readonly string[];
}

/** The environment of `cairn exec`'s child: the allow-list plus the variables named with --env. */
export function strippedEnvironment(source: Environment, passed: readonly string[]): StrippedEnvironment {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && (ALLOWED.has(name) || ALLOWED_PREFIX.test(name))) env[name] = value;
  }
  const missing: string[] = [];
  for (const name of passed) {
    const value = source[name];
    if (value === undefined) missing.push(name);
    else env[name] = value;
  }
  return { env, missing };
}
