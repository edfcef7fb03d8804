/** What `initialize` told us about the gateway. */
export interface McpProbe {
  readonly protocolVersion: string | undefined;
  readonly latestProtocolVersion: string;
  readonly server: { name: string; version: string } | undefined;
  readonly tools: number;
}

/**
 * Connects to the MCP endpoint with the SDK's own Streamable HTTP client, as an agent would:
 * `initialize` (the negotiated protocol revision, the server's name and version) and
 * `tools/list` (what this token is offered). Loaded only by `cairn doctor`.
 */
export async function probeMcp(url: URL, token: string, timeoutMs: number, userAgent: string): Promise<McpProbe> {
  const [{ Client }, { StreamableHTTPClientTransport }, { LATEST_PROTOCOL_VERSION }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const client = new Client({ name: 'cairn-doctor', version: userAgent });
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: { headers: { Authorization: `Bearer ${token}`, 'User-Agent': userAgent } },
  });
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    await client.connect(transport, { signal, timeout: timeoutMs });
    const tools = await client.listTools(undefined, { signal, timeout: timeoutMs });
    const info = client.getServerVersion();
    return {
      protocolVersion: transport.protocolVersion,
      latestProtocolVersion: LATEST_PROTOCOL_VERSION,
      server: info ? { name: info.name, version: info.version } : undefined,
      tools: tools.tools.length,
    };
  } finally {
    await client.close().catch(() => undefined);
  }
}
