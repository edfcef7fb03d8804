import { join, relative, resolve } from 'node:path';
import { shQuote } from './util';

/**
 * Where `npm start` keeps what it runs on this machine (PostgreSQL and Redis data, ports,
 * secrets, the running launcher's record): `.cairn/` in the clone, or CAIRN_STATE_DIR, so one
 * clone can run more than one stack (each on its own ports) and tests never touch `.cairn/`.
 */
export function localStateDir(root: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.CAIRN_STATE_DIR ? resolve(env.CAIRN_STATE_DIR) : join(root, '.cairn');
}

/** The state dir as a user reads it: `.cairn/` in the clone, else its absolute path. */
export function describeStateDir(root: string, stateDir: string): string {
  return stateDir === join(root, '.cairn') ? '.cairn/' : `${stateDir}/`;
}

/**
 * A shell command that prints the admin token kept in the state dir's secrets.json, for a paste
 * line that never shows the token itself: from the repository root, as the README runs it.
 */
export function adminTokenCommand(root: string, stateDir: string): string {
  const file = join(stateDir, 'secrets.json');
  const path = stateDir === join(root, '.cairn') ? `./${relative(root, file)}` : file;
  return `node -p ${shQuote(`require(${JSON.stringify(path)}).adminToken`)}`;
}
