import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeVersionWarning, SUPPORTED_NODE_ENGINES } from './node-support';

describe('the supported Node versions', () => {
  it('are the ones package.json engines states', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as {
      engines: { node: string };
    };
    expect(pkg.engines.node).toBe(SUPPORTED_NODE_ENGINES);
  });

  it('warns in one line on a node older than 22.19, naming the supported versions', () => {
    for (const old of ['20.20.2', 'v18.19.0', '22.18.0', '21.7.3']) {
      const warning = nodeVersionWarning(old);
      expect(warning).toMatch(/^warning: Node \d+\.\d+\.\d+ is not supported \(Cairn supports Node 22 .*Node 24/);
      expect(warning).not.toContain('\n');
    }
  });

  it('is silent on a supported or newer node', () => {
    for (const ok of ['22.19.0', 'v22.23.3', '24.0.0', '24.21.0', '26.10.0'])
      expect(nodeVersionWarning(ok)).toBeUndefined();
  });
});
