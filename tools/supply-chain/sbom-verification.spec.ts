import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type LockFile, productionPackages, sbomProblems } from './sbom-verification';

/**
 * The SBOM `npm run sbom` writes, generated here for real by cyclonedx-npm from this checkout,
 * then checked as CI checks it, and checked again after each kind of damage.
 */

const ROOT = resolve(__dirname, '../..');
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as LockFile;
const expected = productionPackages(lock, (path) => existsSync(join(ROOT, path)));

describe('the SBOM of the production dependencies', () => {
  let dir: string;
  let text: string;
  const edited = (edit: (sbom: any) => void) => {
    const sbom = JSON.parse(text);
    edit(sbom);
    return JSON.stringify(sbom);
  };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-sbom-'));
    const script = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.sbom as string;
    // The npm script's own command line, with the output in the temporary directory.
    const args = script
      .split(' ')
      .slice(1)
      .map((a) => (a === 'dist/sbom.cdx.json' ? join(dir, 'sbom.cdx.json') : a));
    execFileSync(join(ROOT, 'node_modules/.bin/cyclonedx-npm'), args, { cwd: ROOT, stdio: 'pipe' });
    text = readFileSync(join(dir, 'sbom.cdx.json'), 'utf8');
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('expects the production packages of the lock file only', () => {
    expect(expected.size).toBeGreaterThan(200);
    expect(expected).toContain(`pg@${lock.packages['node_modules/pg'].version}`);
    expect(expected).toContain(`@nestjs/core@${lock.packages['node_modules/@nestjs/core'].version}`);
    expect([...expected].some((p) => p.startsWith('jest@'))).toBe(false);
  });

  it('is valid CycloneDX listing exactly those packages, each with its package URL and a licence', async () => {
    expect(JSON.parse(text)).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6' });
    expect(await sbomProblems(text, expected, lock)).toEqual([]);
  });

  it('names a production package the SBOM lacks, and a package it should not list', async () => {
    const problems = await sbomProblems(
      edited((sbom) => {
        sbom.components = sbom.components.filter((c: any) => c.name !== 'pg');
        sbom.components.push({
          type: 'library',
          name: 'jest',
          version: '29.7.0',
          purl: 'pkg:npm/jest@29.7.0',
          licenses: [{ license: { id: 'MIT' } }],
        });
      }),
      expected,
      lock,
    );
    expect(problems).toContain(`pg@${lock.packages['node_modules/pg'].version}: in package-lock.json, not in the SBOM`);
    expect(problems).toContain('jest@29.7.0: in the SBOM, not a production package of package-lock.json');
  });

  it('refuses a component without a licence or with a package URL naming another package', async () => {
    const problems = await sbomProblems(
      edited((sbom) => {
        const pg = sbom.components.find((c: any) => c.name === 'pg');
        delete pg.licenses;
        const zod = sbom.components.find((c: any) => c.name === 'zod');
        zod.purl = 'pkg:npm/zod@0.0.1';
      }),
      expected,
      lock,
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        `pg@${lock.packages['node_modules/pg'].version}: no licence`,
        expect.stringMatching(/^zod@[\d.]+: package URL "pkg:npm\/zod@0\.0\.1" does not name it/),
      ]),
    );
  });

  it('refuses what the CycloneDX schema refuses, and what is not CycloneDX', async () => {
    const problems = await sbomProblems(
      edited((sbom) => (sbom.components[0].type = 'banana')),
      expected,
      lock,
    );
    expect(problems[0]).toMatch(/^schema 1\.6: \/components\/0\/type /);
    expect(await sbomProblems('{"bomFormat":"SPDX"}', expected, lock)).toEqual([
      'bomFormat is "SPDX", not "CycloneDX"',
    ]);
    expect(await sbomProblems('nope', expected, lock)).toEqual(['not JSON']);
  });
});
