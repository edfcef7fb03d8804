import { type CliContext } from '../cli-context';
import { type SettingSource } from '../settings/settings';
import { ok } from './cairn-client';

/** Where the MCP endpoint was found: a setting, the server's `GET /v1/status`, or a probe of the usual places. */
export type McpUrlSource = SettingSource | 'server' | 'probe' | 'guess';

export interface McpEndpointChoice {
  readonly url: URL;
  readonly source: McpUrlSource;
  /** What was tried and why this one, for `cairn doctor` and `--json`. */
  readonly notes: readonly string[];
}

const DEFAULT_GATEWAY_PORT = 8081;
const PROBE_TIMEOUT_MS = 3_000;

/**
 * The MCP endpoint for this server: CAIRN_MCP_URL / --mcp-url / the file when set; else what the
 * API says (`GET /v1/status` → `mcp.url`, from the operator's MCP_PUBLIC_URL); else the places an
 * installation usually serves it, confirmed by a probe: `<api>/mcp` (one host, an ingress routing
 * /mcp to the gateway, as the Helm chart does) and the API's host on the gateway's port (`npm
 * start`: api 8080, gateway 8081). A gateway answers an unauthenticated POST with 401 and a
 * `WWW-Authenticate: Bearer … resource_metadata=` challenge, which nothing else here does.
 */
export async function resolveMcpEndpoint(ctx: CliContext): Promise<McpEndpointChoice> {
  const settings = await ctx.settings();
  if (settings.mcpUrl) return { url: settings.mcpUrl.value, source: settings.mcpUrl.source, notes: [] };
  const notes: string[] = [];
  const apiUrl = settings.url?.value;
  if (!apiUrl) throw new Error('resolveMcpEndpoint needs the API URL (requireUrl first)');
  let port = DEFAULT_GATEWAY_PORT;
  if (settings.token) {
    try {
      const status = await ok(ctx.client(apiUrl, settings.token.value, 10_000).GET('/v1/status'));
      if (status.mcp.url) return { url: new URL(status.mcp.url), source: 'server', notes };
      port = status.mcp.port;
      notes.push('the server has no MCP_PUBLIC_URL set, so it cannot say where its MCP endpoint is seen from outside');
    } catch (error) {
      notes.push(`GET /v1/status failed (${(error as Error).message}); probing the usual places`);
    }
  }
  const base = apiUrl.href.replace(/\/+$/, '');
  const candidates = [new URL(`${base}/mcp`)];
  const sameHost = new URL(apiUrl.origin);
  sameHost.port = String(port);
  if (sameHost.origin !== apiUrl.origin) candidates.push(new URL('/mcp', sameHost));
  for (const candidate of candidates) {
    if (await answersLikeAGateway(candidate, ctx.io.fetch ?? globalThis.fetch)) {
      return { url: candidate, source: 'probe', notes: [...notes, `${candidate.href} answers as an MCP gateway`] };
    }
    notes.push(`${candidate.href} does not answer as an MCP gateway`);
  }
  return { url: candidates[candidates.length - 1], source: 'guess', notes };
}

async function answersLikeAGateway(url: URL, fetchImpl: typeof globalThis.fetch): Promise<boolean> {
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'ping' }),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      redirect: 'manual',
    });
    await response.body?.cancel();
    const challenge = response.headers.get('www-authenticate') ?? '';
    return response.status === 401 && /^Bearer\b/i.test(challenge) && /resource_metadata=/i.test(challenge);
  } catch {
    return false;
  }
}
