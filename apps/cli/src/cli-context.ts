import { type Command } from 'commander';
import { type CairnApi, createCairnClient } from './api/cairn-client';
import { readConfigFile } from './settings/config-file';
import { type CliPaths, cliPaths, type Environment } from './settings/paths';
import {
  type GlobalFlags,
  requireAdminToken,
  requireToken,
  requireUrl,
  resolveSettings,
  type Settings,
} from './settings/settings';
import { Output, type OutputStreams } from './output/output';
import { type KeychainStore } from './settings/keychain';
import { ok } from './api/cairn-client';
import { CliError, ExitCode } from './cli-error';

/** Builds the CliContext of the command being run (its own and its parents' options). */
export type ContextFactory = (command: Command) => CliContext;

/** What the process gives the command: main.ts passes the real ones, tests their own. */
export interface CliIo extends OutputStreams {
  readonly env: Environment;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Overrides the home directory behind the XDG defaults (tests). */
  readonly home?: string;
  /** For tests: the fetch every REST and MCP call uses. */
  readonly fetch?: typeof globalThis.fetch;
  /** The OS keychain (main.ts passes the real one); absent, tokens live only in flags, env and file. */
  readonly keychain?: KeychainStore;
}

/**
 * What a command's action works with: its global flags resolved into settings (flags, env,
 * file), an Output for its result, and REST clients. Built per invocation, resolved lazily, so
 * `cairn --help` reads no file.
 */
export class CliContext {
  readonly paths: CliPaths;
  private settingsPromise?: Promise<Settings>;
  private outputInstance?: Output;

  constructor(
    readonly io: CliIo,
    readonly flags: GlobalFlags,
    readonly version: string,
  ) {
    this.paths = cliPaths(io.env, io.home);
  }

  settings(): Promise<Settings> {
    this.settingsPromise ??= readConfigFile(this.paths.configFile).then((file) =>
      resolveSettings(this.flags, this.io.env, file, this.paths, this.io.keychain),
    );
    return this.settingsPromise;
  }

  get output(): Output {
    this.outputInstance ??= new Output(this.io, {
      json: this.flags.json === true,
      color: this.flags.color,
      env: this.io.env,
    });
    return this.outputInstance;
  }

  /** A REST client with the session token (agent commands). */
  async api(options: { timeoutMs?: number } = {}): Promise<CairnApi> {
    const settings = await this.settings();
    return this.client(requireUrl(settings), requireToken(settings), options.timeoutMs);
  }

  /** A REST client with the admin token (`cairn admin …`), falling back to the session token. */
  async adminApi(options: { timeoutMs?: number } = {}): Promise<CairnApi> {
    const settings = await this.settings();
    return this.client(requireUrl(settings), requireAdminToken(settings), options.timeoutMs);
  }

  /**
   * The project an agent command works in: --project, CAIRN_PROJECT or the file, else the
   * token's default project (one `whoami` call), else a usage error saying how to name one.
   */
  async project(api: CairnApi): Promise<string> {
    const settings = await this.settings();
    if (settings.project) return settings.project.value;
    const me = await ok(api.GET('/v1/whoami'));
    if (me.defaultProject) return me.defaultProject;
    throw new CliError(
      'No project given, and the token has no default project',
      ExitCode.usage,
      'Pass --project <slug>, set CAIRN_PROJECT, or keep a default with `cairn login --project <slug>`.',
    );
  }

  /** A usage error (exit 2) for bad input a command finds itself. */
  usage(message: string, hint?: string): CliError {
    return new CliError(message, ExitCode.usage, hint);
  }

  client(baseUrl: URL, token: string | undefined, timeoutMs?: number): CairnApi {
    return createCairnClient({
      baseUrl,
      token,
      timeoutMs,
      userAgent: `cairn-cli/${this.version}`,
      fetch: this.io.fetch,
    });
  }
}
