import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isRecord } from './hook-input';

/** Where the project a hook works in came from, so its stderr lines and docs/hooks.md can say. */
export type ProjectSource = 'CAIRN_PROJECT' | '.cairn.json' | 'config file' | 'git repository';

export interface ProjectChoice {
  readonly slug: string;
  readonly source: ProjectSource;
}

/**
 * A repository's `.cairn.json` (committed, so the whole team's sessions land in one project):
 * `{"project": "billing-api", "hooks": {"PostToolUse": false}}`. `hooks: false` turns them all off.
 */
export interface RepositorySettings {
  readonly file: string;
  readonly project?: string;
  readonly hooks?: boolean | Readonly<Record<string, boolean>>;
}

const SLUG = /^[a-z][a-z0-9-]{2,39}$/;
/** Directories searched upwards for `.cairn.json` and `.git`: deep enough for any checkout. */
const MAX_LEVELS = 40;

/**
 * The `.cairn.json` nearest to `cwd` (the session's directory or one above it, up to the
 * repository root), or none. A file that is not valid JSON is an error naming it: a typo there
 * must not send a team's memories to another project.
 */
export async function findRepositorySettings(cwd: string): Promise<RepositorySettings | undefined> {
  for (const dir of upwards(cwd)) {
    const file = join(dir, '.cairn.json');
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      if (await exists(join(dir, '.git'))) return undefined;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new Error(`${file} is not valid JSON`);
    }
    if (!isRecord(value)) throw new Error(`${file} must hold a JSON object`);
    const project = typeof value.project === 'string' ? value.project.trim() : undefined;
    if (project !== undefined && !SLUG.test(project)) throw new Error(`${file}: "project" is not a project slug`);
    const hooks = typeof value.hooks === 'boolean' || isRecord(value.hooks) ? value.hooks : undefined;
    return { file, project, hooks: hooks as RepositorySettings['hooks'] };
  }
  return undefined;
}

/**
 * The project a hook works in: CAIRN_PROJECT, else the repository's `.cairn.json`, else the
 * default project of the config file (`cairn login --project`), else the git repository's
 * directory name as a slug (`~/src/Billing_API` → `billing-api`). The server says 404 when that
 * last guess names no project, and the hook says how to choose one.
 */
export async function chooseProject(
  fromEnv: string | undefined,
  repository: RepositorySettings | undefined,
  fromConfig: string | undefined,
  cwd: string,
): Promise<ProjectChoice | undefined> {
  if (fromEnv?.trim()) return { slug: fromEnv.trim(), source: 'CAIRN_PROJECT' };
  if (repository?.project) return { slug: repository.project, source: '.cairn.json' };
  if (fromConfig?.trim()) return { slug: fromConfig.trim(), source: 'config file' };
  const root = await gitRoot(cwd);
  const slug = root && slugOf(basename(root));
  return slug ? { slug, source: 'git repository' } : undefined;
}

/** A directory name as a project slug, or none when it cannot be one. */
export function slugOf(name: string): string | undefined {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .replace(/-+$/, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return SLUG.test(slug) ? slug : undefined;
}

/** The nearest directory at or above `cwd` holding `.git` (a directory, or a file in a worktree). */
async function gitRoot(cwd: string): Promise<string | undefined> {
  for (const dir of upwards(cwd)) {
    if (await exists(join(dir, '.git'))) return dir;
  }
  return undefined;
}

function* upwards(start: string): Generator<string> {
  let dir = start;
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    yield dir;
    const parent = dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
