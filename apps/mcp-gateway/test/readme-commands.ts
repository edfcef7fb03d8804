import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Reading README.md's shell examples, to run them as printed (see readme.e2e-spec.ts). */

export const REPO = resolve(__dirname, '../../..');
/** The local addresses the README's examples name (what `npm start` serves by default). */
export const README_API = 'localhost:8080';
export const README_MCP_URL = 'http://127.0.0.1:8081/mcp';

/** The README's ```bash blocks, in order, as printed. */
export function readmeBashBlocks(): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  // A block inside a list item is indented like its fence; the commands themselves are not.
  return [...readme.matchAll(/^( *)```bash\n([\s\S]*?)^\1```/gm)].map(([, indent, body]) =>
    body.replace(new RegExp(`^${indent}`, 'gm'), ''),
  );
}

/** The ```bash blocks of the README section under `heading` (a whole `##`/`###` line), in order. */
export function readmeSectionBlocks(heading: string): string[] {
  const lines = readFileSync(join(REPO, 'README.md'), 'utf8').split('\n');
  const start = lines.indexOf(heading);
  if (start < 0) throw new Error(`README.md has no heading ${heading}`);
  const blocks: string[] = [];
  let block: string[] | undefined;
  for (const line of lines.slice(start + 1)) {
    if (block) {
      if (line === '```') {
        blocks.push(`${block.join('\n')}\n`);
        block = undefined;
      } else {
        block.push(line);
      }
    } else if (line === '```bash') {
      block = [];
    } else if (/^#{1,3} /.test(line)) {
      break;
    }
  }
  return blocks;
}

/** The one bash block holding `marker`. */
export function readmeBlock(marker: string): string {
  const found = readmeBashBlocks().filter((block) => block.includes(marker));
  if (found.length !== 1) throw new Error(`README.md has ${found.length} bash blocks with ${marker}, not one`);
  return found[0];
}

export interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `script` with bash (inheriting this environment), after exporting `options.env`. */
export function bash(script: string, options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const exports = Object.entries(options.env ?? {}).map(([name, value]) => `export ${name}=${shellQuote(value)}\n`);
  return new Promise((done, fail) => {
    const child = spawn('bash', ['-c', exports.join('') + script], { cwd: options.cwd ?? REPO, timeout: 90_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** One shell word, single-quoted. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
