import { readFile } from 'node:fs/promises';
import { type WhoamiView } from '../offline/identity.repository';
import { openOfflineStore, type OfflineStore } from '../offline/offline-store';
import { queueMaxOf } from '../offline/write-queue.repository';
import { type ConfigFile } from '../settings/config-file';
import { type CliPaths, cliPaths, type Environment } from '../settings/paths';
import { requireToken, requireUrl, resolveSettings } from '../settings/settings';
import { CLI_VERSION } from '../version';
import { reasonOf } from './hook-errors';
import { HookHttp } from './hook-http';
import { type HookEventName, isRecord } from './hook-input';
import { chooseProject, findRepositorySettings, type ProjectChoice, type RepositorySettings } from './hook-project';

/** What the process gives a hook: main.ts passes the real ones, tests spawn the real command. */
export interface HookIo {
  readonly env: Environment;
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  /** Overrides the home directory behind the XDG defaults. */
  readonly home?: string;
}

/** The offline store, or why this run cannot use it (said where it matters: a write that could not be queued). */
export type StoreAccess = { readonly store: OfflineStore } | { readonly problem: string };

/**
 * Everything one hook run works with: where the server is and as whom, which project, where
 * its state lives, and how much of its time is left. A hook starts the clock at process start
 * (`performance.now()` counts from there), so its budgets include Node's own start-up.
 */
export class HookContext {
  /** The REST client (node:http, not fetch: see hook-http.ts); each call takes its own deadline. */
  readonly http: HookHttp;
  private opened?: OfflineStore;

  constructor(
    readonly event: HookEventName,
    readonly io: HookIo,
    readonly paths: CliPaths,
    readonly server: URL,
    private readonly token: string,
    readonly project: ProjectChoice,
    readonly cwd: string,
  ) {
    this.http = new HookHttp(server, token, `cairn-hook/${CLI_VERSION} (${event})`);
  }

  /**
   * The offline store `cairn mcp` and `cairn sync` use too (apps/cli/src/offline), opened once
   * per run and closed by the runner: the same file, and the same identity for the same server
   * and token (a digest of both). For a token seen before, opening is a file open and one
   * indexed read. A token never seen is identified with `GET /v1/whoami` only when `identify`
   * gives the time for it; without, the store is not available to it yet.
   */
  async store(identify?: { readonly timeoutMs: number }): Promise<StoreAccess> {
    if (this.opened) return { store: this.opened };
    try {
      this.opened = await openOfflineStore({
        cacheDir: this.paths.cacheDir,
        server: this.server,
        token: this.token,
        queueMax: queueMaxOf(this.io.env.CAIRN_QUEUE_MAX),
        whoami: identify && (() => this.whoami(identify.timeoutMs)),
      });
      return { store: this.opened };
    } catch (error) {
      return { problem: reasonOf(error) };
    }
  }

  /** Closes the store if this run opened it (before the process exits). */
  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }

  private async whoami(timeoutMs: number): Promise<WhoamiView> {
    return await this.http.request('get', '/v1/whoami', {}, undefined, timeoutMs);
  }

  /** Milliseconds left of `budgetMs` counted from process start. */
  remainingMs(budgetMs: number): number {
    return budgetMs - performance.now();
  }

  /** The one line a hook writes on stderr when it could not do its work (it still exits 0). */
  warn(line: string): void {
    this.io.stderr.write(`cairn ${kebab(this.event)}: ${line.replace(/\s+/g, ' ').slice(0, 400)}\n`);
  }
}

export function kebab(event: HookEventName): string {
  return event.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
}

/** Why a hook does nothing this time, said in one stderr line (or nothing, when `quiet`). */
export class HookSkipped extends Error {
  constructor(
    message: string,
    readonly quiet = false,
  ) {
    super(message);
    this.name = 'HookSkipped';
  }
}

/**
 * The hook's settings: the environment, then the config file `cairn login` wrote, then the
 * repository's `.cairn.json` for the project and the switches. Throws HookSkipped when this
 * hook is turned off (quietly) or cannot run (no server, token or project: said once on stderr).
 */
export async function resolveHookContext(event: HookEventName, io: HookIo, cwd: string): Promise<HookContext> {
  const paths = cliPaths(io.env, io.home);
  if (isOff(io.env, event)) throw new HookSkipped('turned off by CAIRN_HOOKS / CAIRN_HOOKS_DISABLE', true);
  const repository = await findRepositorySettings(cwd).catch((error: Error) => {
    throw new HookSkipped(error.message);
  });
  if (repositoryTurnsOff(repository, event)) throw new HookSkipped(`turned off in ${repository?.file}`, true);
  const file = await readConfigForHooks(paths.configFile);
  const settings = await resolveSettings({}, io.env, file, paths).catch((error: Error) => {
    throw new HookSkipped(error.message);
  });
  let server: URL;
  let token: string;
  try {
    server = requireUrl(settings);
    token = requireToken(settings);
  } catch {
    throw new HookSkipped('no Cairn server or token: run `cairn login` or set CAIRN_URL and CAIRN_TOKEN');
  }
  const fromEnv = settings.project?.source === 'env' ? settings.project.value : undefined;
  const fromFile = settings.project?.source === 'file' ? settings.project.value : undefined;
  const project = await chooseProject(fromEnv, repository, fromFile, cwd);
  if (!project) {
    throw new HookSkipped(
      `no project for ${cwd}: set CAIRN_PROJECT, add {"project": "<slug>"} to .cairn.json, or run \`cairn login --project\``,
    );
  }
  return new HookContext(event, io, paths, server, token, project, cwd);
}

/** CAIRN_HOOKS=off turns every hook off; CAIRN_HOOKS_DISABLE lists the ones to turn off. */
function isOff(env: Environment, event: HookEventName): boolean {
  if (/^(off|0|false|no)$/i.test(env.CAIRN_HOOKS?.trim() ?? '')) return true;
  const listed = (env.CAIRN_HOOKS_DISABLE ?? '').split(',').map((name) => name.trim());
  return listed.some((name) => sameEvent(name, event));
}

function repositoryTurnsOff(repository: RepositorySettings | undefined, event: HookEventName): boolean {
  const hooks = repository?.hooks;
  if (hooks === false) return true;
  if (!hooks || hooks === true) return false;
  return Object.entries(hooks).some(([name, on]) => on === false && sameEvent(name, event));
}

function sameEvent(name: string, event: HookEventName): boolean {
  return name.replace(/[-_\s]/g, '').toLowerCase() === event.toLowerCase();
}

/**
 * The config file's connection fields, read without the zod schema `cairn login` writes it
 * with (zod's start-up alone is ~100 ms, most of a prompt's budget): strings only, each checked
 * again where it is used (URLs by resolveSettings, the rest by the server). A file that is not
 * JSON is said, not guessed around.
 */
async function readConfigForHooks(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { version: 1 };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HookSkipped(`${path} is not valid JSON: fix it or run \`cairn login\` again`);
  }
  if (!isRecord(value)) throw new HookSkipped(`${path} is not a JSON object: run \`cairn login\` again`);
  const field = (key: string) => (typeof value[key] === 'string' ? value[key] : undefined);
  return { version: 1, url: field('url'), mcpUrl: field('mcpUrl'), token: field('token'), project: field('project') };
}
