import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment variables the command reads; main.ts passes the process environment in, tests pass their own. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Where the command keeps its files, per the XDG Base Directory specification on Linux (and the
 * same layout elsewhere, as most developer CLIs do): `$XDG_CONFIG_HOME/cairn` (default
 * `~/.config/cairn`) for settings, `$XDG_CACHE_HOME/cairn` (default `~/.cache/cairn`) for the
 * offline cache and the write queue, `$XDG_STATE_HOME/cairn` for hook state. A relative XDG
 * value is ignored, as the specification says. `CAIRN_CONFIG_DIR` / `CAIRN_CACHE_DIR` override
 * both (tests, several identities on one machine).
 */
export interface CliPaths {
  readonly configDir: string;
  readonly configFile: string;
  readonly cacheDir: string;
  readonly stateDir: string;
}

export function cliPaths(env: Environment, home: string = homedir()): CliPaths {
  const xdg = (name: string, fallback: string): string => {
    const value = env[name];
    return value && isAbsolute(value) ? value : join(home, fallback);
  };
  const configDir = env.CAIRN_CONFIG_DIR || join(xdg('XDG_CONFIG_HOME', '.config'), 'cairn');
  const cacheDir = env.CAIRN_CACHE_DIR || join(xdg('XDG_CACHE_HOME', '.cache'), 'cairn');
  const stateDir = env.CAIRN_STATE_DIR || join(xdg('XDG_STATE_HOME', join('.local', 'state')), 'cairn');
  return { configDir, configFile: join(configDir, 'config.json'), cacheDir, stateDir };
}
