import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { integerIn } from '../input';
import { COMMIT, gitInfo, plausibleBranch } from './git-info';

/** The server's default per-file cap (CODE_FILE_MAX_CHARS, 512 Ki characters): a file within it in bytes is within it in characters. */
const DEFAULT_MAX_FILE_BYTES = 512 * 1024;
/** docs/code-index.md: at most 100 files per upload request. */
const UPLOAD_MAX_FILES = 100;
/**
 * Content per upload request: few requests, yet the JSON body (content plus its escaping) stays
 * under the server's default body limit (HTTP_BODY_LIMIT_BYTES, 1 MiB). A single file up to the
 * per-file cap still goes alone.
 */
const UPLOAD_MAX_BYTES = 640 * 1024;
/** An upload's files are scanned, parsed, chunked and stored before the server answers. */
const REQUEST_TIMEOUT_MS = 120_000;

interface IndexCommandOptions {
  readonly branch?: string;
  readonly commit?: string;
  readonly maxFileSize: number;
  readonly dryRun?: boolean;
}

const HELP = `
What is indexed: every text file under the path, except
  - what a .gitignore or .cairnignore says (same syntax and precedence; .cairnignore is read
    after .gitignore in the same directory, so \`!name\` there re-includes), and .git/
  - vendored and build directories, wherever they are: node_modules, bower_components, vendor,
    third_party, .venv, venv, __pycache__, dist, build, target, out, .next, coverage
    (\`!build/\` in a .cairnignore brings one back)
  - generated files: lock files (package-lock.json, yarn.lock, pnpm-lock.yaml, Cargo.lock,
    go.sum, poetry.lock, composer.lock), *.min.js, *.min.css, *.map, and files whose first
    5 lines carry "@generated" or "Code generated … DO NOT EDIT"
  - binary files, files that are not UTF-8, empty files and files over --max-file-size
Only files whose content changed since the server last saw them are sent; files gone here are
removed from the server's index of the branch.

Examples:
  cairn index                      # the current directory, on the checked-out branch
  cairn index ../api --dry-run     # what would be sent and removed
  cairn index . --branch release/2.3 --json`;

/**
 * `cairn index [path]`: keeps the project's code index of a branch equal to the text files of a
 * tree. Walks and hashes locally, compares with the server's manifest, uploads only what changed,
 * removes what is gone, and records the run (code-index-run.ts does the work).
 */
export function registerCodeIndex(program: Command, context: ContextFactory): void {
  program
    .command('index')
    .description("index a repository's code for the project's agents (sends only what changed)")
    .argument('[path]', 'the root of the tree to index', '.')
    .option('--branch <name>', 'the branch to index under (default: the checked-out branch, else main)', branchName)
    .option('--commit <sha>', 'the commit indexed (default: HEAD, in a git repository)', commitHash)
    .option('--max-file-size <bytes>', 'skip larger files', integerIn(1, 16 * 1024 * 1024), DEFAULT_MAX_FILE_BYTES)
    .option('--dry-run', "walk and compare with the server's manifest; send nothing")
    .addHelpText('after', HELP)
    .action(async (path: string, options: IndexCommandOptions, command: Command) => {
      const ctx = context(command);
      // The real path: git names its top level that way, and the ignore files apply from there.
      const root = await realpath(resolve(process.cwd(), path)).catch(() => undefined);
      const info = root === undefined ? undefined : await stat(root);
      if (root === undefined || !info?.isDirectory()) {
        throw ctx.usage(`${path} is not a directory`, 'Pass the root of the tree to index.');
      }
      const api = await ctx.api({ timeoutMs: REQUEST_TIMEOUT_MS });
      const project = await ctx.project(api);
      // Loaded here, not at start-up: the walker, the binary sniffer and the progress line.
      const { runCodeIndex, renderSummary } = await import('./code-index-run');
      const git = await gitInfo(root);
      const summary = await runCodeIndex(api, ctx.output, {
        root,
        project,
        branch: options.branch ?? git.branch ?? 'main',
        commit: options.commit ?? git.commit,
        rulesFrom: git.topLevel,
        maxFileBytes: options.maxFileSize,
        batchLimits: { maxFiles: UPLOAD_MAX_FILES, maxBytes: UPLOAD_MAX_BYTES },
        dryRun: options.dryRun === true,
      });
      ctx.output.result(summary, renderSummary);
    });
}

function branchName(value: string): string {
  if (!plausibleBranch(value)) throw new InvalidArgumentError('expected a git branch name (1-200 characters)');
  return value;
}

function commitHash(value: string): string {
  const lower = value.toLowerCase();
  if (!COMMIT.test(lower)) throw new InvalidArgumentError('expected a commit hash (7-64 hex characters)');
  return lower;
}
