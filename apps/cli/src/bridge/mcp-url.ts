import { CliError, ExitCode } from '../cli-error';
import { type Settings } from '../settings/settings';

/**
 * The MCP endpoint `cairn mcp` relays to: --mcp-url / CAIRN_MCP_URL / the config file's
 * `mcpUrl`, else `<REST API base>/mcp` (one ingress serving both, as the Helm chart does). The
 * one place this is decided, so `cairn doctor` and `cairn connect` can share it.
 */
export function mcpUrlOf(settings: Settings): URL {
  if (settings.mcpUrl) return settings.mcpUrl.value;
  if (settings.url)
    return new URL('mcp', settings.url.value.href.endsWith('/') ? settings.url.value : `${settings.url.value.href}/`);
  throw new CliError(
    'No MCP endpoint configured',
    ExitCode.notConfigured,
    'Run `cairn login --url https://cairn.example.com`, or set CAIRN_MCP_URL (or CAIRN_URL when /mcp is served beside the API).',
  );
}
