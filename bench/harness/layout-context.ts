/**
 * The context an agent spends to learn a project's layout, two ways, in characters of what it
 * reads: through the harness (the project_card answer, then file_summary of every entry point
 * and hot file the card names), or from the disk (a `git ls-files` listing, then those same
 * files read whole). Both sides count the text the agent is shown, as JavaScript string length.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type ProjectCardView } from '@cairn/project-card';
import { type ToolResult } from '../gateway/rpc-client';
import { type HarnessWorld } from './fixture';

export interface LayoutFile {
  readonly path: string;
  readonly summaryChars: number;
  readonly fileChars: number;
  readonly summaryStatus: string;
}

export interface LayoutContext {
  readonly cardChars: number;
  readonly listingChars: number;
  readonly files: LayoutFile[];
  /**
   * Paths the card names that are not indexed files (a directory, or a build output such as a
   * package.json `bin` under dist/): no summary to read, so left out of both sides.
   */
  readonly skipped: string[];
  /** project_card + the summaries. */
  readonly harnessChars: number;
  /** The listing + the files whole. */
  readonly baselineChars: number;
}

const SUMMARY_WAIT_MS = 120_000;

export const textOf = (result: ToolResult): string =>
  (result.content ?? []).map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');

interface SummaryAnswer {
  readonly summary: { readonly status: string; readonly stale: boolean };
}

/**
 * file_summary of `path` once its newest version is summarised (or failed); the last answer
 * either way; undefined when the path was never indexed.
 */
async function readySummary(world: HarnessWorld, path: string): Promise<ToolResult | undefined> {
  const deadline = performance.now() + SUMMARY_WAIT_MS;
  for (;;) {
    const result = await world.call('file_summary', { path }).catch((error: unknown) => {
      if (error instanceof Error && error.message.includes('(not_found)')) return undefined;
      throw error;
    });
    if (!result) return undefined;
    const { summary } = result.structuredContent as unknown as SummaryAnswer;
    if ((summary.status !== 'pending' && !summary.stale) || performance.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function measureLayoutContext(world: HarnessWorld, root: string): Promise<LayoutContext> {
  const card = await world.call('project_card', {});
  const view = card.structuredContent as unknown as ProjectCardView;
  const paths = [...new Set([...view.content.entryPoints, ...view.content.hotFiles].map((entry) => entry.path))];
  const files: LayoutFile[] = [];
  const skipped: string[] = [];
  for (const path of paths) {
    const absolute = join(root, path);
    if (!existsSync(absolute) || !statSync(absolute).isFile()) {
      skipped.push(path);
      continue;
    }
    const summary = await readySummary(world, path);
    if (!summary) {
      skipped.push(path);
      continue;
    }
    const { summary: state } = summary.structuredContent as unknown as SummaryAnswer;
    files.push({
      path,
      summaryChars: textOf(summary).length,
      fileChars: readFileSync(absolute, 'utf8').length,
      summaryStatus: state.status,
    });
  }
  const listing = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const cardChars = textOf(card).length;
  const sum = (pick: (file: LayoutFile) => number) => files.reduce((total, file) => total + pick(file), 0);
  return {
    cardChars,
    listingChars: listing.length,
    files,
    skipped,
    harnessChars: cardChars + sum((file) => file.summaryChars),
    baselineChars: listing.length + sum((file) => file.fileChars),
  };
}
