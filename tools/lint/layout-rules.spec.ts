import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The layout rules that `npm run lint` runs (docs/architecture.md) catch what they promise:
 * each rule is shown one violation and must report it, and a compliant file passes.
 */
const ROOT = join(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { layoutConfigs } = require('./cairn-eslint-plugin.cjs') as { layoutConfigs: unknown[] };

describe('the ESLint layout rule', () => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...layoutConfigs] as never,
  });
  const lint = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
    return result.messages.map((message) => `${message.ruleId}: ${message.message}`);
  };

  it('accepts a service, a repository and a controller where the layout puts them', async () => {
    expect(
      await lint(
        'libs/example/src/widgets.service.ts',
        "import { Injectable } from '@nestjs/common';\n@Injectable()\nexport class Widgets {}\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'libs/example/src/widgets.repository.ts',
        "import { TenantDb } from '@cairn/tenancy';\nexport class WidgetsRepository { constructor(readonly db: TenantDb) {} }\n",
      ),
    ).toEqual([]);
    expect(
      await lint('libs/example/src/http/widgets.controller.ts', '@Controller()\nexport class WidgetsController {}\n'),
    ).toEqual([]);
  });

  it('refuses an injectable in a file without a kind', async () => {
    expect(await lint('libs/example/src/widgets.ts', '@Injectable()\nexport class Widgets {}\n')).toEqual([
      expect.stringContaining('cairn/library-layout: A class decorated with @Injectable lives in a file named'),
    ]);
  });

  it('refuses a folder the layout does not have', async () => {
    expect(await lint('libs/example/src/helpers/text.ts', 'export const x = 1;\n')).toEqual([
      expect.stringContaining('libs/example/src/helpers/ is not part of the library layout'),
    ]);
  });

  it('refuses an adapter outside its folder and a class in contract/', async () => {
    expect(await lint('libs/example/src/widgets.controller.ts', '@Controller()\nexport class W {}\n')).toEqual([
      expect.stringContaining('lives in libs/example/src/http/'),
    ]);
    expect(await lint('libs/example/src/widgets.tool.ts', '@McpTool(spec)\nexport class W {}\n')).toEqual([
      expect.stringContaining('lives in libs/example/src/mcp/'),
    ]);
    expect(await lint('libs/example/src/contract/widgets.service.ts', '@Injectable()\nexport class W {}\n')).toEqual([
      expect.stringContaining('contract/ holds schemas'),
    ]);
  });

  it('refuses TenantDb and TenantConnections outside a repository, deep library paths and export *', async () => {
    expect(
      await lint(
        'libs/example/src/widgets.service.ts',
        "import { TenantDb } from '@cairn/tenancy';\nexport { TenantDb };\n",
      ),
    ).toEqual([expect.stringContaining("'TenantDb' import from '@cairn/tenancy' is restricted")]);
    expect(
      await lint(
        'libs/example/src/widgets.service.ts',
        "import { TenantConnections } from '@cairn/tenancy';\nexport { TenantConnections };\n",
      ),
    ).toEqual([expect.stringContaining("'TenantConnections' import from '@cairn/tenancy' is restricted")]);
    expect(
      await lint('libs/example/src/widgets.service.ts', "import { x } from '../../other/src/x';\nexport { x };\n"),
    ).toEqual([expect.stringContaining('Import libraries through their @cairn/* alias')]);
    expect(await lint('libs/example/src/index.ts', "export * from './widgets.service';\n")).toEqual([
      expect.stringContaining('export named items'),
    ]);
  });
});

describe('the dependency-cruiser boundary rules', () => {
  let fixture: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(fixture, path)), { recursive: true });
    writeFileSync(join(fixture, path), text);
  };

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), 'cairn-layout-'));
    symlinkSync(join(ROOT, 'node_modules'), join(fixture, 'node_modules'), 'dir');
    write(
      'tsconfig.json',
      JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@cairn/*': ['libs/*/src'] }, strict: true } }),
    );
    write('libs/beta/src/index.ts', "export { beta } from './beta';\n");
    write('libs/beta/src/beta.ts', 'export const beta = 1;\n');
    write('libs/beta/src/hidden.ts', 'export const hidden = 2;\n');
    write('libs/alpha/src/index.ts', "export { Alpha } from './alpha.service';\n");
    write(
      'libs/alpha/src/alpha.service.ts',
      [
        "import { beta } from '@cairn/beta';",
        "import { hidden } from '../../beta/src/hidden';",
        "import { Pool } from 'pg';",
        "import { build } from './alpha.sql';",
        "import { type Handle } from './mcp/alpha.tool';",
        'export class Alpha { constructor(readonly pool: Pool, readonly h: Handle) {} n = beta + hidden + build(); }',
        '',
      ].join('\n'),
    );
    write('libs/alpha/src/alpha.sql.ts', "export const build = () => 'SELECT 1';\n");
    write('libs/alpha/src/alpha.repository.ts', "import { Pool } from 'pg';\nexport type P = Pool;\n");
    write('libs/alpha/src/http/alpha.controller.ts', 'export class AlphaController {}\n');
    write(
      'libs/alpha/src/mcp/alpha.tool.ts',
      "import { AlphaController } from '../http/alpha.controller';\nexport type Handle = AlphaController;\n",
    );
    write(
      'libs/alpha/src/contract/alpha.dto.ts',
      "import { type Alpha } from '../alpha.service';\nexport type A = Alpha;\n",
    );
    write('libs/alpha/src/cycle-one.ts', "import { type Two } from './cycle-two';\nexport type One = Two[];\n");
    write('libs/alpha/src/cycle-two.ts', "import { type One } from './cycle-one';\nexport type Two = One | null;\n");
  });
  afterAll(() => rmSync(fixture, { recursive: true, force: true }));

  it('reports every broken rule, and nothing a compliant import does', async () => {
    const cli = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
    const run = await promisify(execFile)(
      process.execPath,
      [cli, 'libs', '--config', join(ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      { cwd: fixture, maxBuffer: 32 * 1024 * 1024 },
    ).catch((error: { stdout: string }) => error);
    const report = JSON.parse(run.stdout) as {
      summary: { violations: { from: string; to: string; rule: { name: string } }[] };
    };
    const found = report.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`).sort();
    const expected: (string | RegExp)[] = [
      'adapters-never-import-adapters: libs/alpha/src/mcp/alpha.tool.ts → libs/alpha/src/http/alpha.controller.ts',
      'contract-is-a-leaf: libs/alpha/src/contract/alpha.dto.ts → libs/alpha/src/alpha.service.ts',
      'libraries-through-entry-points: libs/alpha/src/alpha.service.ts → libs/beta/src/hidden.ts',
      // A cycle is reported once, at the edge where the cruise closes it.
      /^no-circular: libs\/alpha\/src\/cycle-(one|two)\.ts → libs\/alpha\/src\/cycle-(one|two)\.ts$/,
      /^only-repositories-reach-the-database: libs\/alpha\/src\/alpha\.service\.ts → node_modules\/pg\//,
      'root-never-imports-adapters: libs/alpha/src/alpha.service.ts → libs/alpha/src/mcp/alpha.tool.ts',
      'statement-builders-serve-repositories: libs/alpha/src/alpha.service.ts → libs/alpha/src/alpha.sql.ts',
    ];
    for (const rule of expected) {
      expect(found).toContainEqual(typeof rule === 'string' ? rule : expect.stringMatching(rule));
    }
    // The compliant imports (@cairn/beta, the repository's pg, the adapters' own files) add nothing.
    expect(found).toHaveLength(expected.length);
  });
});
