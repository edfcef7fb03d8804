import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The package's version, read from the package.json above the compiled file (dist/apps/cli/src →
 * the package root; apps/cli/src under ts-jest), so `cairn --version` and the User-Agent say
 * which release is talking.
 */
function packageVersion(): string {
  for (const up of ['../../..', '../../../..']) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, up, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'cairn' && pkg.version) return pkg.version;
    } catch {
      // not at this level: try the next one up
    }
  }
  return '0.0.0';
}

export const CLI_VERSION = packageVersion();
