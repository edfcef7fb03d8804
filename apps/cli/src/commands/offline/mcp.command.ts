import { type Command, InvalidArgumentError, Option } from 'commander';
import { runBridge } from '../../bridge/run-bridge';
import { type ContextFactory } from '../../cli-context';

interface McpOptions {
  readonly syncInterval: number;
  readonly offline: boolean;
  readonly logName: string;
  readonly oauth?: boolean;
}

/**
 * `cairn mcp`: the stdio MCP server a client starts (Claude Code, Cursor, …), relaying to the
 * Cairn MCP endpoint, with the offline cache and write queue (docs/cli.md "Offline"). The alias
 * `cairn-mcp-stdio` runs the same.
 */
export function registerMcp(program: Command, context: ContextFactory): void {
  program
    .command('mcp')
    .description('stdio MCP bridge to the Cairn server, answering from a local cache and queueing writes when offline')
    .option('--sync-interval <seconds>', 'seconds between queue replays and change-feed syncs', seconds, 60)
    .option('--no-offline', 'a plain relay: no local cache, no write queue')
    .option(
      '--oauth',
      'use OAuth and authorize in the browser whenever the server asks (first use, more scope, a revoked grant)',
    )
    // How the bridge names itself on stderr: the alias cairn-mcp-stdio sets its own name.
    .addOption(new Option('--log-name <name>').hideHelp().default('cairn mcp'))
    .addHelpText(
      'after',
      `
The MCP endpoint is --mcp-url / CAIRN_MCP_URL, else <CAIRN_URL>/mcp. The offline layer needs the
REST API (CAIRN_URL) too; the cache and queue live in $XDG_CACHE_HOME/cairn/offline.sqlite.
stdout carries only MCP messages; diagnostics go to stderr.

It authenticates with the session token (CAIRN_TOKEN, or \`cairn login\`), else with the OAuth
tokens \`cairn login --oauth\` kept, refreshing them as needed. Without --oauth it never opens a
browser: when the server wants a new authorization, calls fail saying to run \`cairn login --oauth\`.`,
    )
    .action(async (options: McpOptions, command: Command) => {
      await runBridge(context(command), {
        syncIntervalSeconds: options.syncInterval,
        offline: options.offline,
        name: options.logName,
        oauth: options.oauth,
      });
    });
}

function seconds(raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 86_400) {
    throw new InvalidArgumentError('a whole number of seconds from 1 to 86400');
  }
  return value;
}
