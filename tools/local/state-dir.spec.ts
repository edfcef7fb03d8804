import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminTokenCommand, describeStateDir, localStateDir } from './state-dir';

describe("npm start's state dir", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'cairn-state-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** What the banner's paste line sets CAIRN_ADMIN_TOKEN to, run by bash from the repository root. */
  const tokenFromPasteLine = (command: string) =>
    execFileSync('bash', ['-c', `export CAIRN_ADMIN_TOKEN=$(${command}); printf %s "$CAIRN_ADMIN_TOKEN"`], {
      cwd: root,
      encoding: 'utf8',
    });

  it('is .cairn/ in the clone, or CAIRN_STATE_DIR', () => {
    expect(localStateDir(root, {})).toBe(join(root, '.cairn'));
    expect(describeStateDir(root, localStateDir(root, {}))).toBe('.cairn/');
    expect(localStateDir(root, { CAIRN_STATE_DIR: '/srv/cairn-b' })).toBe('/srv/cairn-b');
    expect(describeStateDir(root, '/srv/cairn-b')).toBe('/srv/cairn-b/');
  });

  it('gives a command that reads the admin token from secrets.json without printing it, as the README does', () => {
    const stateDir = localStateDir(root, {});
    mkdirSync(stateDir);
    writeFileSync(join(stateDir, 'secrets.json'), JSON.stringify({ adminToken: 'cairn_pa_from-the-file' }));
    const command = adminTokenCommand(root, stateDir);
    expect(command).toBe(`node -p 'require("./.cairn/secrets.json").adminToken'`);
    expect(command).not.toContain('cairn_pa_');
    expect(tokenFromPasteLine(command)).toBe('cairn_pa_from-the-file');
  });

  it('names another state dir by its absolute path, whatever characters the path holds', () => {
    const stateDir = join(root, `it's a "state" dir`);
    mkdirSync(stateDir);
    writeFileSync(join(stateDir, 'secrets.json'), JSON.stringify({ adminToken: 'cairn_pa_elsewhere' }));
    expect(tokenFromPasteLine(adminTokenCommand(root, stateDir))).toBe('cairn_pa_elsewhere');
  });
});
