import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { exitWhenFlushed } from '@cairn/common';
import { type LockFile, productionPackages, sbomProblems } from './sbom-verification';

/**
 * `node dist/tools/supply-chain/verify-sbom.js [SBOM] [APP_DIR]`: checks the SBOM (default
 * dist/sbom.cdx.json) against APP_DIR's package-lock.json and node_modules (default: here).
 * Exit 0 and a one-line summary, or 1 and every problem. CI runs it (.ci/run "supply chain").
 */
async function main(sbomPath = 'dist/sbom.cdx.json', appDir = '.'): Promise<number> {
  const lock = JSON.parse(readFileSync(join(appDir, 'package-lock.json'), 'utf8')) as LockFile;
  const expected = productionPackages(lock, (path) => existsSync(join(appDir, path)));
  const problems = await sbomProblems(readFileSync(sbomPath, 'utf8'), expected, lock);
  if (problems.length > 0) {
    process.stderr.write(
      `${resolve(sbomPath)}: ${problems.length} problems\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
    );
    return 1;
  }
  process.stdout.write(
    `${resolve(sbomPath)}: valid CycloneDX, the ${expected.size} production packages of package-lock.json, each with its package URL and licence\n`,
  );
  return 0;
}

main(...process.argv.slice(2)).then(
  (code) => exitWhenFlushed(code),
  (error: unknown) => {
    process.stderr.write(`verify-sbom: ${error instanceof Error ? error.message : String(error)}\n`);
    exitWhenFlushed(1);
  },
);
