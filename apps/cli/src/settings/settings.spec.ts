import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError, ExitCode } from '../cli-error';
import { EMPTY_CONFIG, readConfigFile, writeConfigFile } from './config-file';
import { cliPaths } from './paths';
import { resolveSettings } from './settings';

describe('cliPaths', () => {
  it('follows XDG, ignores relative XDG values, and honours CAIRN_CONFIG_DIR', () => {
    expect(cliPaths({}, '/home/a').configFile).toBe('/home/a/.config/cairn/config.json');
    expect(cliPaths({ XDG_CONFIG_HOME: '/x' }, '/home/a').configDir).toBe('/x/cairn');
    expect(cliPaths({ XDG_CONFIG_HOME: 'rel' }, '/home/a').configDir).toBe('/home/a/.config/cairn');
    expect(cliPaths({ XDG_CACHE_HOME: '/c' }, '/home/a').cacheDir).toBe('/c/cairn');
    expect(cliPaths({ CAIRN_CONFIG_DIR: '/cfg' }, '/home/a').configFile).toBe('/cfg/config.json');
  });
});

describe('resolveSettings', () => {
  const paths = cliPaths({}, '/home/a');
  const file = { version: 1 as const, url: 'https://file.example', token: 'file-token', project: 'file-proj' };

  it('takes flags over the environment over the file, field by field, and says where each came from', async () => {
    const settings = await resolveSettings(
      { project: 'flag-proj' },
      { CAIRN_TOKEN: 'env-token', CAIRN_URL: '' },
      file,
      paths,
    );
    expect(settings.url).toEqual({ value: new URL('https://file.example'), source: 'file' });
    expect(settings.token).toEqual({ value: 'env-token', source: 'env' });
    expect(settings.project).toEqual({ value: 'flag-proj', source: 'flag' });
  });

  it('reads a token from the keychain only when neither flag, environment nor file has one', async () => {
    const keychain = { readToken: jest.fn().mockResolvedValue('kc-token') };
    const settings = await resolveSettings({}, {}, { version: 1, url: 'https://k.example' }, paths, keychain);
    expect(settings.token).toEqual({ value: 'kc-token', source: 'keychain' });
    const fromEnv = await resolveSettings(
      {},
      { CAIRN_TOKEN: 't' },
      { version: 1, url: 'https://k.example' },
      paths,
      keychain,
    );
    expect(fromEnv.token?.source).toBe('env');
  });

  it('refuses a URL with credentials, a query or another scheme, naming the setting', async () => {
    for (const url of ['https://u:p@x.example', 'https://x.example/?a=1', 'ftp://x.example', 'not a url']) {
      const error = await resolveSettings({}, { CAIRN_URL: url }, EMPTY_CONFIG, paths).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CliError);
      expect(error).toMatchObject({ exitCode: ExitCode.usage, message: expect.stringContaining('CAIRN_URL') });
    }
  });
});

describe('the config file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cairn-cli-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written with mode 0600 in a 0700 directory and read back', async () => {
    const path = join(dir, 'cfg', 'config.json');
    await writeConfigFile(path, { version: 1, url: 'https://a.example', token: 'secret-token' });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'cfg')).mode & 0o777).toBe(0o700);
    await expect(readConfigFile(path)).resolves.toEqual({
      version: 1,
      url: 'https://a.example',
      token: 'secret-token',
    });
  });

  it('reads a missing file as empty and refuses a malformed one with its path', async () => {
    await expect(readConfigFile(join(dir, 'none.json'))).resolves.toEqual(EMPTY_CONFIG);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"version":1,"url":"not a url"}');
    await expect(readConfigFile(bad)).rejects.toMatchObject({
      exitCode: ExitCode.notConfigured,
      message: expect.stringContaining(bad),
    });
    writeFileSync(bad, '{');
    await expect(readConfigFile(bad)).rejects.toMatchObject({ message: `${bad} is not valid JSON` });
    expect(readFileSync(bad, 'utf8')).toBe('{');
  });
});
