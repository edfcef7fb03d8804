import { spawn } from 'node:child_process';
import { type Environment } from '../settings/paths';

/**
 * The command that opens a URL: `CAIRN_BROWSER`, else `BROWSER` (the convention many command
 * lines follow; the first of a colon-separated list, `%s` standing for the URL when present),
 * else the system's own opener. Under the conformance suite and in tests, `CAIRN_BROWSER` names
 * a program that plays the browser.
 */
export function browserCommand(env: Environment, platform: NodeJS.Platform = process.platform): string | undefined {
  const configured = env.CAIRN_BROWSER?.trim() || env.BROWSER?.split(':')[0]?.trim();
  if (configured) return configured;
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return undefined; // `start`, a cmd built-in: see openBrowser
  return 'xdg-open';
}

/**
 * Opens `url` in the person's browser without waiting for it (the flow waits for the callback
 * instead); answers false when no opener could be started, so the caller says to open the URL
 * by hand (it prints the URL in any case).
 */
export async function openBrowser(
  url: string,
  env: Environment,
  platform: NodeJS.Platform = process.platform,
): Promise<boolean> {
  const command = browserCommand(env, platform);
  const child =
    command === undefined
      ? spawn('cmd', ['/c', 'start', '""', `"${url}"`], {
          windowsVerbatimArguments: true,
          stdio: 'ignore',
          detached: true,
        })
      : spawn(withUrl(command, url, platform), { shell: true, stdio: 'ignore', detached: true, env: { ...env } });
  return new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

/** The command line with the URL quoted for the shell: it carries `&`, which a shell would take as its own. */
function withUrl(command: string, url: string, platform: NodeJS.Platform): string {
  const quoted = platform === 'win32' ? `"${url.replace(/"/g, '%22')}"` : `'${url.replace(/'/g, `'\\''`)}'`;
  return command.includes('%s') ? command.replace('%s', quoted) : `${command} ${quoted}`;
}
