import { type CairnApi } from '../../api/cairn-client';
import { type CodeSkipReason, collectCodeFiles, type LocalCodeFile } from '../../indexing/code-files';
import { batchUploads, type BatchLimits, planIndex } from '../../indexing/index-plan';
import { type Output } from '../../output/output';
import { startStatusLine } from '../../output/progress';
import { fetchManifest, type IndexTarget, recordRun, removePaths, uploadBatches } from './code-index-sync';

export interface CodeIndexRunOptions extends IndexTarget {
  /** The tree's root, a real path: what paths are relative to. */
  readonly root: string;
  /** Where the ignore files start applying (the git work tree's top), when the root is in one. */
  readonly rulesFrom?: string;
  readonly maxFileBytes: number;
  readonly batchLimits: BatchLimits;
  readonly dryRun: boolean;
}

/** Files (or directories, each counted once and never entered) left out, by reason. */
export type SkippedCounts = Record<
  'ignored' | 'vendored' | 'generated' | 'binary' | 'tooLarge' | 'empty' | 'notUtf8' | 'badPath' | 'unreadable',
  number
>;

/** What `cairn index` prints (as JSON with --json). */
export interface CodeIndexSummary {
  readonly project: string;
  readonly branch: string;
  readonly commit: string | null;
  readonly root: string;
  /** With --dry-run, `uploaded` and `removed` count what would have been sent, and nothing was. */
  readonly dryRun: boolean;
  /** Files kept to index: unchanged + uploaded (+ any that changed into something not to index meanwhile). */
  readonly scanned: number;
  readonly unchanged: number;
  readonly uploaded: number;
  readonly removed: number;
  readonly bytesUploaded: number;
  readonly skipped: SkippedCounts;
  /** Symbols the server extracted from the uploaded files. */
  readonly symbols: number;
  /** Secrets the server replaced with placeholders in the uploaded files. */
  readonly secretsRedacted: number;
  readonly durationMs: number;
  /** The server's record of the run: the branch's files and symbols now, and the project card's version. */
  readonly run: { readonly files: number; readonly symbols: number; readonly cardVersion: number } | null;
  /** With --dry-run: the paths that would be uploaded and removed. */
  readonly wouldUpload?: readonly string[];
  readonly wouldRemove?: readonly string[];
}

const SKIP_KEYS: Record<CodeSkipReason, keyof SkippedCounts> = {
  ignored: 'ignored',
  vendored: 'vendored',
  generated: 'generated',
  binary: 'binary',
  'too-large': 'tooLarge',
  empty: 'empty',
  'not-utf8': 'notUtf8',
  'bad-path': 'badPath',
  unreadable: 'unreadable',
};

/**
 * One run: walk and hash the tree, fetch the branch's manifest, upload what differs (batched,
 * a few requests in flight), remove what is gone, record the run. An unchanged tree costs the
 * manifest pages and the run record only. A request the server refuses stops the run with its
 * error; what was already sent stays, and the next run sends the rest.
 */
export async function runCodeIndex(
  api: CairnApi,
  output: Output,
  options: CodeIndexRunOptions,
): Promise<CodeIndexSummary> {
  const started = performance.now();
  const status = startStatusLine(output);
  try {
    const local: LocalCodeFile[] = [];
    const skipped: SkippedCounts = {
      ignored: 0,
      vendored: 0,
      generated: 0,
      binary: 0,
      tooLarge: 0,
      empty: 0,
      notUtf8: 0,
      badPath: 0,
      unreadable: 0,
    };
    let seen = 0;
    for await (const entry of collectCodeFiles(options.root, options)) {
      if (entry.kind === 'file') local.push(entry.file);
      else skipped[SKIP_KEYS[entry.reason]] += 1;
      if (++seen % 100 === 0) status.update(`scanning ${seen} files`);
    }
    status.update("comparing with the server's manifest");
    const target: IndexTarget = { project: options.project, branch: options.branch, commit: options.commit };
    const plan = planIndex(local, await fetchManifest(api, target));
    const toSend = plan.uploads.reduce((sum, file) => sum + file.size, 0);
    const base = {
      project: options.project,
      branch: options.branch,
      commit: options.commit ?? null,
      root: options.root,
      dryRun: options.dryRun,
      scanned: local.length,
      unchanged: plan.unchanged,
    };
    if (options.dryRun) {
      return {
        ...base,
        uploaded: plan.uploads.length,
        removed: plan.removals.length,
        bytesUploaded: toSend,
        skipped,
        symbols: 0,
        secretsRedacted: 0,
        durationMs: Math.round(performance.now() - started),
        run: null,
        wouldUpload: plan.uploads.map((file) => file.source),
        wouldRemove: plan.removals,
      };
    }

    let doneFiles = 0;
    let doneBytes = 0;
    const showUploads = () =>
      status.update(`indexing ${doneFiles}/${plan.uploads.length} files (${formatBytes(doneBytes)})`);
    if (plan.uploads.length > 0) showUploads();
    const sent = await uploadBatches(api, target, batchUploads(plan.uploads, options.batchLimits), (files, bytes) => {
      doneFiles += files;
      doneBytes += bytes;
      showUploads();
    });
    skipped.unreadable += sent.vanished.length;
    if (plan.removals.length > 0) status.update(`removing ${plan.removals.length} files`);
    const removed = plan.removals.length > 0 ? await removePaths(api, target, plan.removals) : 0;
    const run = await recordRun(api, target, {
      scanned: local.length,
      uploaded: sent.uploaded,
      removed,
      skipped: Object.values(skipped).reduce((sum, count) => sum + count, 0),
    });
    return {
      ...base,
      uploaded: sent.uploaded,
      removed,
      bytesUploaded: sent.bytes,
      skipped,
      symbols: sent.symbols,
      secretsRedacted: sent.secretsRedacted,
      durationMs: Math.round(performance.now() - started),
      run: { files: run.files, symbols: run.symbols, cardVersion: run.card.version },
    };
  } finally {
    status.stop();
  }
}

/** The summary for people: what was sent, what was left out and why (reasons with a count only). */
export function renderSummary(view: CodeIndexSummary): string {
  const where = `${view.project}, branch ${view.branch}${view.commit ? ` at ${view.commit.slice(0, 12)}` : ''}`;
  const skippedText = Object.entries(view.skipped)
    .filter(([, count]) => count > 0)
    .map(([reason, count]) => `${count} ${SKIP_LABELS[reason as keyof SkippedCounts]}`)
    .join(', ');
  const lines = view.dryRun
    ? [
        `Dry run for ${where}: nothing sent.`,
        `Scanned ${view.scanned} files: ${view.unchanged} unchanged, ${view.uploaded} to upload (${formatBytes(view.bytesUploaded)}), ${view.removed} to remove.`,
      ]
    : [
        `Indexed ${view.root} into ${where} in ${(view.durationMs / 1000).toFixed(1)} s.`,
        `Scanned ${view.scanned} files: ${view.unchanged} unchanged, ${view.uploaded} uploaded (${formatBytes(view.bytesUploaded)}), ${view.removed} removed.`,
        `Symbols indexed: ${view.symbols}; secrets redacted: ${view.secretsRedacted}.`,
      ];
  lines.push(`Skipped: ${skippedText || 'nothing'}.`);
  if (view.run) lines.push(`The branch's index holds ${view.run.files} files, ${view.run.symbols} symbols.`);
  return lines.join('\n');
}

const SKIP_LABELS: Record<keyof SkippedCounts, string> = {
  ignored: 'ignored',
  vendored: 'vendored directories',
  generated: 'generated',
  binary: 'binary',
  tooLarge: 'too large',
  empty: 'empty',
  notUtf8: 'not UTF-8',
  badPath: 'with a path the server refuses',
  unreadable: 'unreadable',
};

/** 3.1 MB, 512 KB, 80 B: decimal units, one decimal from MB up. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(1)} GB`;
}
