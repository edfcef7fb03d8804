import { CliError, ExitCode } from '../cli-error';
import { type ConfigFile } from './config-file';
import { type CliPaths, type Environment } from './paths';

/** Where a setting came from, so `cairn doctor` and `cairn whoami` can say which one is in force. */
export type SettingSource = 'flag' | 'env' | 'keychain' | 'file' | 'derived';

export interface Setting<T> {
  readonly value: T;
  readonly source: SettingSource;
}

/** The options every command accepts (commander's global options). */
export interface GlobalFlags {
  readonly url?: string;
  readonly mcpUrl?: string;
  readonly token?: string;
  readonly adminToken?: string;
  readonly project?: string;
  readonly json?: boolean;
  readonly color?: boolean;
}

/** Reads a token kept in the OS keychain (when one is available on this machine). */
export interface KeychainReader {
  readToken(url: string, kind: 'token' | 'adminToken' | 'oauth'): Promise<string | undefined>;
}

/** Everything a command needs to know about where to connect and as whom, with each value's source. */
export interface Settings {
  readonly paths: CliPaths;
  readonly url?: Setting<URL>;
  readonly mcpUrl?: Setting<URL>;
  readonly token?: Setting<string>;
  readonly adminToken?: Setting<string>;
  readonly project?: Setting<string>;
}

/**
 * Flags, then the environment, then the config file (then the keychain for tokens), field by
 * field: `CAIRN_TOKEN=… cairn recall …` works with a file that names only the server, and a
 * hook runs with no file at all.
 */
export async function resolveSettings(
  flags: GlobalFlags,
  env: Environment,
  file: ConfigFile,
  paths: CliPaths,
  keychain?: KeychainReader,
): Promise<Settings> {
  const pick = (flag: string | undefined, envValue: string | undefined, fileValue: string | undefined) => {
    if (flag?.trim()) return { value: flag.trim(), source: 'flag' as const };
    if (envValue?.trim()) return { value: envValue.trim(), source: 'env' as const };
    if (fileValue?.trim()) return { value: fileValue.trim(), source: 'file' as const };
    return undefined;
  };
  const url = pick(flags.url, env.CAIRN_URL, file.url);
  const mcpUrl = pick(flags.mcpUrl, env.CAIRN_MCP_URL, file.mcpUrl);
  let token: Setting<string> | undefined = pick(flags.token, env.CAIRN_TOKEN, file.token);
  let adminToken: Setting<string> | undefined = pick(flags.adminToken, env.CAIRN_ADMIN_TOKEN, file.adminToken);
  if (url && keychain) {
    token ??= await fromKeychain(keychain, url.value, 'token');
    adminToken ??= await fromKeychain(keychain, url.value, 'adminToken');
  }
  return {
    paths,
    url: url && { value: parseServerUrl(url.value, url.source === 'env' ? 'CAIRN_URL' : '--url'), source: url.source },
    mcpUrl: mcpUrl && {
      value: parseServerUrl(mcpUrl.value, mcpUrl.source === 'env' ? 'CAIRN_MCP_URL' : '--mcp-url'),
      source: mcpUrl.source,
    },
    token,
    adminToken,
    project: pick(flags.project, env.CAIRN_PROJECT, file.project),
  };
}

async function fromKeychain(
  keychain: KeychainReader,
  url: string,
  kind: 'token' | 'adminToken',
): Promise<Setting<string> | undefined> {
  const value = await keychain.readToken(url, kind).catch(() => undefined);
  return value ? { value, source: 'keychain' } : undefined;
}

/** An http(s) URL without credentials, query or fragment; anything else is a usage error naming the setting. */
export function parseServerUrl(raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(`${name} is not a URL: ${raw.slice(0, 200)}`, ExitCode.usage);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new CliError(`${name} must be http:// or https://, not ${url.protocol}`, ExitCode.usage);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new CliError(
      `${name} must not carry credentials, a query or a fragment`,
      ExitCode.usage,
      'Pass the token with --token, CAIRN_TOKEN or `cairn login`.',
    );
  }
  return url;
}

/** The server URL or an error that says how to configure it. */
export function requireUrl(settings: Settings): URL {
  if (settings.url) return settings.url.value;
  throw new CliError(
    'No Cairn server configured',
    ExitCode.notConfigured,
    'Run `cairn login --url https://cairn.example.com` or set CAIRN_URL.',
  );
}

/** The session token or an error that says how to configure it. */
export function requireToken(settings: Settings): string {
  if (settings.token) return settings.token.value;
  throw new CliError(
    'No session token configured',
    ExitCode.notConfigured,
    'Run `cairn login --token …`, or set CAIRN_TOKEN (an admin issues tokens with `cairn admin tokens create`).',
  );
}

/** The admin token for `cairn admin …`: CAIRN_ADMIN_TOKEN / --admin-token / file, else the session token. */
export function requireAdminToken(settings: Settings): string {
  if (settings.adminToken) return settings.adminToken.value;
  if (settings.token) return settings.token.value;
  throw new CliError(
    'No admin token configured',
    ExitCode.notConfigured,
    'Set CAIRN_ADMIN_TOKEN (the platform bootstrap token or a tenant admin session token) or pass --admin-token.',
  );
}

/** The project slug or an error that says how to name one. */
export function requireProject(settings: Settings): string {
  if (settings.project) return settings.project.value;
  throw new CliError(
    'No project given',
    ExitCode.usage,
    'Pass --project <slug>, set CAIRN_PROJECT, or keep a default with `cairn login --project <slug>`.',
  );
}
