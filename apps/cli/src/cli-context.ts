import { type Command } from 'commander';
import { createCairnClient, type CairnApi } from './api/cairn-client';
import { readConfigFile } from './settings/config-file';
import { type CliPaths, cliPaths, type Environment } from './settings/paths';
import {
  type GlobalFlags,
  type KeychainReader,
  requireAdminToken,
  requireToken,
  requireUrl,
  resolveSettings,
  type Settings,
} from './settings/settings';
import { Output, type OutputStreams } from './output/output';

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
  readonly keychain?: KeychainReader;
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
