import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { exitWhenFlushed } from '@cairn/common';
import { checkIntegrity, INTEGRITY_EXIT_CODE, type IntegrityReport, writeIntegrityManifest } from '@cairn/integrity';

/**
 * The integrity manifest from the command line, in the working directory (the repository root,
 * or /app in the image):
 *
 *   node dist/tools/integrity/main.js write [--manifest dist/integrity.json] [root…]
 *     hashes the roots (default: dist node_modules package.json) into the manifest: the image
 *     build runs it last, with the model directory among the roots (npm run integrity:manifest);
 *   node dist/tools/integrity/main.js check [--manifest dist/integrity.json]
 *     compares the files with it, as CAIRN_INTEGRITY=strict does at start, and prints the report:
 *     exit 0 when intact, 65 otherwise (in the image: `cairn integrity`).
 */
export const DEFAULT_ROOTS = ['dist', 'node_modules', 'package.json'];
const USAGE = 'usage: integrity write [--manifest FILE] [ROOT…] | integrity check [--manifest FILE]';

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    options: { manifest: { type: 'string', default: 'dist/integrity.json' } },
    allowPositionals: true,
    strict: true,
  });
  const [command, ...roots] = positionals;
  const baseDir = resolve('.');
  const manifestPath = resolve(values.manifest);
  if (command === 'write') {
    const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version?: string }).version;
    const manifest = await writeIntegrityManifest({
      baseDir,
      manifestPath,
      roots: roots.length > 0 ? roots : DEFAULT_ROOTS,
      version,
    });
    process.stdout.write(
      `${manifestPath}: ${Object.keys(manifest.files).length} files under ${manifest.roots.join(', ')}\n`,
    );
    return 0;
  }
  if (command === 'check' && roots.length === 0) {
    const report = await checkIntegrity({ mode: 'strict', manifestPath, baseDir });
    process.stdout.write(formatReport(report));
    return report.status === 'intact' ? 0 : INTEGRITY_EXIT_CODE;
  }
  process.stderr.write(`${USAGE}\n`);
  return 64;
}

/** The report for a terminal: the verdict, then the first paths of each kind. */
export function formatReport(report: IntegrityReport): string {
  const lines = [`integrity: ${report.status}: ${report.detail}`];
  for (const kind of ['changed', 'added', 'missing'] as const) {
    const { count, paths } = report[kind];
    if (count === 0) continue;
    lines.push(`${kind} (${count}):`, ...paths.map((path) => `  ${path}`));
    if (count > paths.length) lines.push(`  … and ${count - paths.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => exitWhenFlushed(code),
    (error: unknown) => {
      process.stderr.write(`integrity: ${error instanceof Error ? error.message : String(error)}\n`);
      exitWhenFlushed(1);
    },
  );
}
