import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';

const ROOT = resolve(__dirname, '../../..');

describe('the console REST types', () => {
  it('are generated from the committed OpenAPI document (npm run console:openapi regenerates them)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-console-openapi-'));
    try {
      const out = join(dir, 'openapi.ts');
      execFileSync(
        process.execPath,
        [
          join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
          join(ROOT, 'apps/api/contract/openapi.json'),
          '--default-non-nullable',
          'false',
          '-o',
          out,
        ],
        { stdio: 'pipe' },
      );
      expectCommittedFile(join(ROOT, 'apps/console/src/api/openapi.ts'), readFileSync(out, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
