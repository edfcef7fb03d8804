import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Real directory trees under the system's temporary directory for the walker's specs (path →
 * content), removed with `removeAll()` in afterAll.
 */
export function tempTrees(): {
  make(files: Record<string, string | Buffer>): string;
  removeAll(): void;
} {
  const roots: string[] = [];
  return {
    make(files) {
      const root = mkdtempSync(join(tmpdir(), 'cairn-index-'));
      roots.push(root);
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), content);
      }
      return root;
    },
    removeAll: () => roots.splice(0).forEach((root) => rmSync(root, { recursive: true, force: true })),
  };
}
