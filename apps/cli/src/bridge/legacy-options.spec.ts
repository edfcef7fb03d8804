import { legacyBridgeArgv } from './legacy-options';

describe('cairn-mcp-stdio arguments', () => {
  it('are `cairn mcp` with the old --url as the MCP endpoint', () => {
    expect(legacyBridgeArgv(['--url', 'https://cairn.example.com/mcp', '--token', 't'])).toEqual([
      'mcp',
      '--log-name',
      'cairn-mcp-stdio',
      '--mcp-url',
      'https://cairn.example.com/mcp',
      '--token',
      't',
    ]);
    expect(legacyBridgeArgv(['--url=https://c.example/mcp'])).toContain('--mcp-url=https://c.example/mcp');
    expect(legacyBridgeArgv(['-h'])).toContain('--help');
    expect(legacyBridgeArgv(['--verbose'])).toContain('--verbose');
  });
});
