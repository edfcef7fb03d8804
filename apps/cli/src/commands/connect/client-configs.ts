import { homedir } from 'node:os';
import { join } from 'node:path';
import { type Environment } from '../../settings/paths';

export const CLIENTS = ['claude-code', 'cursor', 'codex', 'vscode'] as const;
export type ClientName = (typeof CLIENTS)[number];
export const SCOPES = ['user', 'project'] as const;
export type Scope = (typeof SCOPES)[number];

/** The environment variable every written configuration reads the token from; never the token itself. */
export const TOKEN_VARIABLE = 'CAIRN_TOKEN';

/** Where a client keeps its MCP servers and how one entry looks, per its documentation. */
export interface ClientConfig {
  readonly client: ClientName;
  readonly scope: Scope;
  readonly file: string;
  readonly format: 'json' | 'toml';
  /** Path of the servers object in the file (`mcpServers`, `servers`, `mcp_servers`). */
  readonly container: string;
  /** The entry for one server. */
  readonly entry: Readonly<Record<string, unknown>>;
  /** Whether the file is meant to be committed (then it must reference the token, as all do). */
  readonly shared: boolean;
  /** A line for the person: what the client needs to pick the entry up. */
  readonly note: string;
}

export interface Placement {
  readonly mcpUrl: string;
  readonly cwd: string;
  readonly env: Environment;
  readonly home?: string;
  readonly platform?: NodeJS.Platform;
}

/**
 * Each client's documented file and entry shape (sources in docs/cli.md):
 * - Claude Code: `.mcp.json` at the project root (project scope) or `~/.claude.json` (user
 *   scope), `mcpServers.<name>` = `{type: "http", url, headers}`; `${VAR}` is expanded in url and headers.
 * - Cursor: `.cursor/mcp.json` or `~/.cursor/mcp.json`, `mcpServers.<name>` = `{url, headers}`;
 *   its interpolation is `${env:VAR}`.
 * - Codex: `~/.codex/config.toml` (`$CODEX_HOME`), or `.codex/config.toml` of a trusted project,
 *   `[mcp_servers.<name>]` with `url` and `bearer_token_env_var` (Codex reads the variable itself).
 * - VS Code: `.vscode/mcp.json` or the profile's `mcp.json` (`Code/User/` under the OS config
 *   directory), `servers.<name>` = `{type: "http", url, headers}`; `${env:VAR}` is a predefined variable.
 */
export function clientConfig(client: ClientName, scope: Scope, where: Placement): ClientConfig {
  const home = where.home ?? homedir();
  const url = where.mcpUrl;
  switch (client) {
    case 'claude-code':
      return {
        client,
        scope,
        file: scope === 'project' ? join(where.cwd, '.mcp.json') : join(home, '.claude.json'),
        format: 'json',
        container: 'mcpServers',
        entry: { type: 'http', url, headers: { Authorization: `Bearer \${${TOKEN_VARIABLE}}` } },
        shared: scope === 'project',
        note: `Start Claude Code from a shell where ${TOKEN_VARIABLE} is set; /mcp lists the server (a project server asks for approval once).`,
      };
    case 'cursor':
      return {
        client,
        scope,
        file: scope === 'project' ? join(where.cwd, '.cursor', 'mcp.json') : join(home, '.cursor', 'mcp.json'),
        format: 'json',
        container: 'mcpServers',
        entry: { url, headers: { Authorization: `Bearer \${env:${TOKEN_VARIABLE}}` } },
        shared: scope === 'project',
        note: `Cursor reads ${TOKEN_VARIABLE} from the environment it was started in (Settings → MCP shows the server).`,
      };
    case 'codex': {
      const codexHome = where.env.CODEX_HOME || join(home, '.codex');
      return {
        client,
        scope,
        file: scope === 'project' ? join(where.cwd, '.codex', 'config.toml') : join(codexHome, 'config.toml'),
        format: 'toml',
        container: 'mcp_servers',
        entry: { url, bearer_token_env_var: TOKEN_VARIABLE },
        shared: scope === 'project',
        note:
          `Codex sends $${TOKEN_VARIABLE} as the bearer token; \`codex mcp list\` shows the server` +
          (scope === 'project' ? ' (project files are read only in projects you trust).' : '.'),
      };
    }
    case 'vscode':
      return {
        client,
        scope,
        file:
          scope === 'project' ? join(where.cwd, '.vscode', 'mcp.json') : join(vscodeUserDir(where, home), 'mcp.json'),
        format: 'json',
        container: 'servers',
        entry: { type: 'http', url, headers: { Authorization: `Bearer \${env:${TOKEN_VARIABLE}}` } },
        shared: scope === 'project',
        note: `Start VS Code from a shell where ${TOKEN_VARIABLE} is set (\`code .\`); "MCP: List Servers" shows it.`,
      };
  }
}

/** VS Code's user profile folder: `Code/User` under the platform's configuration directory. */
function vscodeUserDir(where: Placement, home: string): string {
  const platform = where.platform ?? process.platform;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Code', 'User');
  if (platform === 'win32') return join(where.env.APPDATA || join(home, 'AppData', 'Roaming'), 'Code', 'User');
  const config = where.env.XDG_CONFIG_HOME?.startsWith('/') ? where.env.XDG_CONFIG_HOME : join(home, '.config');
  return join(config, 'Code', 'User');
}
