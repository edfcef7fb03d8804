import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/** Set to 1 (`npm run snapshots`) to rewrite the committed files instead of comparing. */
export const UPDATE_SNAPSHOTS_ENV = 'UPDATE_SNAPSHOTS';

/**
 * Compares `actual` with a file committed to the repository, so a change to a contract (the
 * OpenAPI document, the MCP tool list, a rendered SQL statement) shows in review as a diff of
 * that file. With UPDATE_SNAPSHOTS=1 the file is rewritten; in CI a missing file fails.
 */
export function expectCommittedFile(path: string, actual: string): void {
  const text = actual.endsWith('\n') ? actual : `${actual}\n`;
  const shown = relative(process.cwd(), path);
  if (updatingSnapshots()) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  if (!existsSync(path)) {
    throw new Error(`${shown} is not committed yet: run \`npm run snapshots\` and commit it`);
  }
  const committed = readFileSync(path, 'utf8');
  if (committed !== text) {
    // The assertion prints the diff; the message says how to accept a deliberate change.
    expect({ file: shown, hint: 'deliberate change? run `npm run snapshots` and commit the file', text }).toEqual({
      file: shown,
      hint: 'deliberate change? run `npm run snapshots` and commit the file',
      text: committed,
    });
  }
}

/** True when this run rewrites committed files (UPDATE_SNAPSHOTS=1) instead of comparing. */
export function updatingSnapshots(): boolean {
  return process.env[UPDATE_SNAPSHOTS_ENV] === '1';
}

/** Stable JSON for committed files: two-space indent, trailing newline. */
export function prettyJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
