/**
 * The command line of `cairn-mcp-stdio` (the bridge's name before `cairn mcp`) in `cairn mcp`'s
 * terms, so existing client configurations keep working: its `--url` was the MCP endpoint
 * (`--mcp-url` now; `--url` is the REST API base), `-h` its help. Everything else passes as is,
 * and `cairn mcp` refuses what it does not know.
 */
export function legacyBridgeArgv(argv: readonly string[]): string[] {
  const translated: string[] = ['mcp', '--log-name', 'cairn-mcp-stdio'];
  for (const arg of argv) {
    if (arg === '--url') translated.push('--mcp-url');
    else if (arg.startsWith('--url=')) translated.push(`--mcp-url=${arg.slice('--url='.length)}`);
    else if (arg === '-h') translated.push('--help');
    else translated.push(arg);
  }
  return translated;
}
