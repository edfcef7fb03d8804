import { isBinaryFile } from 'isbinaryfile';
import { walkFiles } from '../../indexing/file-walker';

/** A file `cairn kb index` will read, or why it will not. */
export type Collected =
  | { readonly kind: 'file'; readonly path: string; readonly source: string; readonly size: number }
  | {
      readonly kind: 'skipped';
      readonly source: string;
      readonly reason: 'ignored' | 'binary' | 'too-large' | 'empty' | 'unreadable';
    };

export interface CollectOptions {
  /** Files larger than this are skipped (the server caps a request body; a document is text, not a dump). */
  readonly maxFileBytes: number;
  /** Sources are named relative to this directory (the current one). */
  readonly cwd: string;
}

/**
 * The documents under the given paths: the shared walk (indexing/file-walker.ts) with the
 * .gitignore files only, then binary files (isbinaryfile's content sniffing) skipped. Ignored
 * directories are not reported: a document set names its files, not what it left out.
 */
export async function* collectFiles(paths: readonly string[], options: CollectOptions): AsyncGenerator<Collected> {
  for await (const item of walkFiles(paths, { ...options, ignoreFiles: ['.gitignore'] })) {
    if (item.kind === 'skipped-directory') continue;
    if (item.kind === 'skipped') {
      yield item;
      continue;
    }
    const binary = await isBinaryFile(item.path).catch(() => undefined);
    if (binary === undefined) yield { kind: 'skipped', source: item.source, reason: 'unreadable' };
    else if (binary) yield { kind: 'skipped', source: item.source, reason: 'binary' };
    else yield item;
  }
}
