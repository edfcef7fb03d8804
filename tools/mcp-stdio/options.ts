import { parseArgs } from 'node:util';

export const USAGE = `Usage: cairn-mcp-stdio --url https://cairn.example.com/mcp [--token <token>]

Relays MCP over stdio (for clients that can only start a command) to a remote Cairn
MCP endpoint over Streamable HTTP.

  --url <url>      the remote endpoint (or CAIRN_MCP_URL)
  --token <token>  a Cairn session token; prefer the CAIRN_TOKEN environment variable,
                   which other users of this machine cannot read in the process list
  --help           show this text`;

export type BridgeArgs =
  | { readonly kind: 'run'; readonly url: URL; readonly token: string; readonly warnings: string[] }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Command line and environment → what to connect to, or a message saying what is wrong. */
export function parseBridgeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): BridgeArgs {
  let values: { url?: string; token?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };

  const rawUrl = values.url ?? env.CAIRN_MCP_URL;
  if (!rawUrl) return { kind: 'error', message: 'Missing --url (or CAIRN_MCP_URL): the remote MCP endpoint' };
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { kind: 'error', message: `--url is not a URL: ${rawUrl.slice(0, 200)}` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { kind: 'error', message: `--url must be http:// or https://, not ${url.protocol}` };
  }
  if (url.username || url.password || url.search) {
    return {
      kind: 'error',
      message: '--url must not carry credentials or a query string; pass the token with CAIRN_TOKEN',
    };
  }

  const token = (env.CAIRN_TOKEN || values.token || '').trim();
  if (!token) return { kind: 'error', message: 'Missing token: set CAIRN_TOKEN (preferred) or pass --token' };
  const warnings: string[] = [];
  if (values.token && !env.CAIRN_TOKEN) {
    warnings.push('the token was given with --token and is visible in the process list; prefer CAIRN_TOKEN');
  }
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    warnings.push(`sending the token over plain http to ${url.host}; use https outside this machine`);
  }
  return { kind: 'run', url, token, warnings };
}
