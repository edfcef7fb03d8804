import { type CairnApi, ok } from '../../api/cairn-client';
import { type AnswerOf, type BodyOf } from '../../api/rest-types';
import { CliError } from '../../cli-error';
import { type LocalCodeFile, readCodeFile } from '../../indexing/code-files';
import { chunked, forEachLimited } from '../../indexing/index-plan';

/** Requests in flight at once: enough to hide latency, few enough not to crowd the server out for other agents. */
export const IN_FLIGHT = 3;
/** The largest manifest page the server gives (docs/code-index.md). */
const MANIFEST_PAGE = 5000;
/** The most paths one remove request takes (docs/code-index.md). */
const REMOVE_BATCH = 1000;

/** Where a run writes: one project's index of one branch. */
export interface IndexTarget {
  readonly project: string;
  readonly branch: string;
  readonly commit?: string;
}

export interface UploadTotals {
  /** Files sent. */
  readonly uploaded: number;
  readonly bytes: number;
  /** Symbols the server extracted from them. */
  readonly symbols: number;
  /** Secrets the server replaced with placeholders in them. */
  readonly secretsRedacted: number;
  /** Files that changed between the walk and their upload into something not to index (deleted, now binary): not sent. */
  readonly vanished: readonly string[];
}

/** The branch's manifest, path → hash, page by page. */
export async function fetchManifest(client: CairnApi, target: IndexTarget): Promise<Map<string, string>> {
  const manifest = new Map<string, string>();
  let after: string | undefined;
  do {
    const page = await ok(
      client.GET('/v1/projects/{project}/code/manifest', {
        params: {
          path: { project: target.project },
          query: { branch: target.branch, limit: MANIFEST_PAGE, ...(after === undefined ? {} : { after }) },
        },
      }),
    );
    for (const file of page.files) manifest.set(file.path, file.hash);
    // A server repeating a cursor would loop forever: a page must move forward.
    after = page.next !== null && page.next !== after ? page.next : undefined;
  } while (after !== undefined);
  return manifest;
}

/**
 * Uploads the batches, IN_FLIGHT at a time, reading each file again as its batch goes (only
 * hashes were kept from the walk). `onBatch` hears of each batch the server took.
 */
export async function uploadBatches(
  client: CairnApi,
  target: IndexTarget,
  batches: readonly (readonly LocalCodeFile[])[],
  onBatch: (files: number, bytes: number) => void,
): Promise<UploadTotals> {
  let uploaded = 0;
  let bytes = 0;
  let symbols = 0;
  let secretsRedacted = 0;
  const vanished: string[] = [];
  await forEachLimited(
    batches.map((files, index) => ({ files, index })),
    IN_FLIGHT,
    async ({ files, index }) => {
      const contents: { path: string; content: string }[] = [];
      let batchBytes = 0;
      for (const file of files) {
        const content = await readCodeFile(file.path);
        if (content?.kind !== 'text') vanished.push(file.source);
        else {
          contents.push({ path: file.source, content: content.text });
          batchBytes += Buffer.byteLength(content.text);
        }
      }
      if (contents.length === 0) return;
      const answer = await withContext(
        `Uploading batch ${index + 1} of ${batches.length} (${describe(contents.map((c) => c.path))})`,
        ok(
          client.PUT('/v1/projects/{project}/code/files', {
            params: { path: { project: target.project } },
            body: { branch: target.branch, ...commitOf(target), files: contents },
          }),
        ),
      );
      for (const file of answer.files) {
        symbols += file.symbols;
        secretsRedacted += file.redacted.reduce((sum, finding) => sum + finding.count, 0);
      }
      uploaded += contents.length;
      bytes += batchBytes;
      onBatch(files.length, batchBytes);
    },
  );
  return { uploaded, bytes, symbols, secretsRedacted, vanished };
}

/** Removes the paths from the branch's index, at most REMOVE_BATCH per request; the number the server removed. */
export async function removePaths(client: CairnApi, target: IndexTarget, paths: readonly string[]): Promise<number> {
  let removed = 0;
  const slices = chunked(paths, REMOVE_BATCH);
  await forEachLimited(
    slices.map((slice, index) => ({ slice, index })),
    IN_FLIGHT,
    async ({ slice, index }) => {
      const answer = await withContext(
        `Removing batch ${index + 1} of ${slices.length} (${describe(slice)})`,
        ok(
          client.POST('/v1/projects/{project}/code/files/remove', {
            params: { path: { project: target.project } },
            body: { branch: target.branch, paths: slice },
          }),
        ),
      );
      removed += answer.removed;
    },
  );
  return removed;
}

/** Records the run with its counts; the server derives the project card again. */
export function recordRun(
  client: CairnApi,
  target: IndexTarget,
  counts: Omit<BodyOf<'/v1/projects/{project}/code/runs', 'post'>, 'branch' | 'commit'>,
): Promise<AnswerOf<'/v1/projects/{project}/code/runs', 'post'>> {
  return withContext(
    'Recording the run',
    ok(
      client.POST('/v1/projects/{project}/code/runs', {
        params: { path: { project: target.project } },
        body: { branch: target.branch, ...commitOf(target), ...counts },
      }),
    ),
  );
}

const commitOf = (target: IndexTarget) => (target.commit === undefined ? {} : { commit: target.commit });

/** A batch named by its first and last paths, enough to find it again. */
function describe(paths: readonly string[]): string {
  return paths.length === 1 ? paths[0] : `${paths[0]} … ${paths[paths.length - 1]}, ${paths.length} files`;
}

/**
 * The server's error (mapped to its exit code by `ok()`), prefixed with what was being done, so
 * "413 request body too large" says which batch. Nothing after a failed request is sent.
 */
async function withContext<T>(doing: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    throw new CliError(`${doing} failed: ${error.message}`, error.exitCode, error.hint, error.details);
  }
}
