import { parseBridgeArgs } from './options';

describe('cairn-mcp-stdio arguments', () => {
  const url = 'https://cairn.example.com/mcp';

  it('prefers CAIRN_TOKEN and warns when the token is on the command line', () => {
    expect(parseBridgeArgs(['--url', url], { CAIRN_TOKEN: 'cairn_st_env' })).toEqual({
      kind: 'run',
      url: new URL(url),
      token: 'cairn_st_env',
      warnings: [],
    });
    const fromFlag = parseBridgeArgs(['--url', url, '--token', 'cairn_st_flag'], {});
    expect(fromFlag).toMatchObject({ kind: 'run', token: 'cairn_st_flag' });
    expect(fromFlag.kind === 'run' && fromFlag.warnings.join()).toMatch(/process list/);
    expect(parseBridgeArgs(['--url', url, '--token', 'cairn_st_flag'], { CAIRN_TOKEN: 'cairn_st_env' })).toMatchObject({
      token: 'cairn_st_env',
      warnings: [],
    });
  });

  it('takes the URL from CAIRN_MCP_URL and warns about plain http off this machine', () => {
    expect(parseBridgeArgs([], { CAIRN_MCP_URL: 'http://127.0.0.1:8081/mcp', CAIRN_TOKEN: 't' })).toMatchObject({
      kind: 'run',
      warnings: [],
    });
    const remote = parseBridgeArgs(['--url', 'http://cairn.internal/mcp'], { CAIRN_TOKEN: 't' });
    expect(remote.kind === 'run' && remote.warnings.join()).toMatch(/plain http to cairn\.internal/);
  });

  it.each([
    [[], { CAIRN_TOKEN: 't' }, /Missing --url/],
    [['--url', url], {}, /Missing token: set CAIRN_TOKEN/],
    [['--url', url], { CAIRN_TOKEN: '  ' }, /Missing token/],
    [['--url', 'not a url'], { CAIRN_TOKEN: 't' }, /not a URL/],
    [['--url', 'ftp://cairn.example.com/mcp'], { CAIRN_TOKEN: 't' }, /http:\/\/ or https:\/\//],
    [['--url', `${url}?access_token=t`], { CAIRN_TOKEN: 't' }, /query string/],
    [['--url', 'https://user:pw@cairn.example.com/mcp'], { CAIRN_TOKEN: 't' }, /credentials/],
    [['--url', url, '--verbose'], { CAIRN_TOKEN: 't' }, /Unknown option '--verbose'/],
    [['--url'], { CAIRN_TOKEN: 't' }, /argument missing/],
  ])('refuses %j with a message that says what to do', (argv, env, message) => {
    const parsed = parseBridgeArgs(argv, env);
    expect(parsed.kind).toBe('error');
    expect(parsed.kind === 'error' && parsed.message).toMatch(message);
  });

  it('answers --help', () => {
    expect(parseBridgeArgs(['--help'], {})).toEqual({ kind: 'help' });
  });
});
