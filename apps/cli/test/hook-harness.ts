import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { childEnvironment } from '@cairn/process-harness';

export const REPO_ROOT = resolve(__dirname, '../../..');
/** The built command (`npm run build`): hooks are tested as Claude Code runs them, a process per event. */
export const CLI_MAIN = join(REPO_ROOT, 'dist/apps/cli/src/main.js');
const FIXTURES = join(__dirname, 'fixtures');

export interface HookRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed, when it is JSON. */
  readonly output?: { hookSpecificOutput: Record<string, any> };
  readonly ms: number;
}

/**
 * A developer's machine for hooks: a repository directory (with `.git` and `.cairn.json`
 * naming the project), and empty config, cache and state directories, so each test file
 * starts with no queued writes, no session state and no config file.
 */
export class HookMachine {
  readonly root = mkdtempSync(join(tmpdir(), 'cairn-hooks-'));
  readonly repo = join(this.root, 'billing-api');
  readonly configDir = join(this.root, 'config');
  readonly cacheDir = join(this.root, 'cache');
  readonly stateDir = join(this.root, 'state');

  constructor(private readonly base: { url: string; token: string; project: string }) {
    if (!existsSync(CLI_MAIN)) throw new Error(`${CLI_MAIN} is missing: run \`npm run build\` first`);
    mkdirSync(join(this.repo, '.git'), { recursive: true });
    writeFileSync(join(this.repo, '.cairn.json'), JSON.stringify({ project: base.project }));
  }

  /** The environment Claude Code would give the hook (nothing of the test runner's), with Cairn's settings. */
  env(extra: Record<string, string | undefined> = {}): Record<string, string> {
    return childEnvironment({
      HOME: this.root,
      CAIRN_URL: this.base.url,
      CAIRN_TOKEN: this.base.token,
      CAIRN_CONFIG_DIR: this.configDir,
      CAIRN_CACHE_DIR: this.cacheDir,
      CAIRN_STATE_DIR: this.stateDir,
      ...extra,
    });
  }

  /** Runs `cairn hook <event>` with `input` on stdin, as Claude Code does. */
  run(event: string, input: unknown, extra: Record<string, string | undefined> = {}): Promise<HookRun> {
    return this.spawn(['hook', event], typeof input === 'string' ? input : JSON.stringify(input), extra);
  }

  private spawn(args: readonly string[], stdin: string, extra: Record<string, string | undefined>): Promise<HookRun> {
    const started = performance.now();
    return new Promise((done, fail) => {
      const child = spawn(process.execPath, [CLI_MAIN, ...args], { cwd: this.repo, env: this.env(extra) });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
      child.on('error', fail);
      child.on('close', (code) => {
        const stdout = Buffer.concat(out).toString('utf8');
        let output: HookRun['output'];
        try {
          output = stdout.trim() ? JSON.parse(stdout) : undefined;
        } catch {
          output = undefined;
        }
        done({ code, stdout, stderr: Buffer.concat(err).toString('utf8'), output, ms: performance.now() - started });
      });
      child.stdin.end(stdin);
    });
  }

  /** Runs another `cairn` command (`queue --json`, `sync`) as this machine's user, with the same settings as the hooks. */
  cairn(args: readonly string[], extra: Record<string, string | undefined> = {}): Promise<HookRun> {
    return this.spawn(args, '', extra);
  }

  /** A recorded hook input (apps/cli/test/fixtures/hook-inputs), with this machine's paths and the given fields. */
  input(name: string, fields: Record<string, unknown> = {}): Record<string, unknown> {
    const recorded = JSON.parse(readFileSync(join(FIXTURES, 'hook-inputs', `${name}.json`), 'utf8')) as Record<
      string,
      unknown
    >;
    return { ...recorded, cwd: this.repo, transcript_path: join(this.root, 'transcript.jsonl'), ...fields };
  }

  /** Writes the session transcript the inputs point at: the recorded one, plus `more` lines. */
  writeTranscript(more: readonly object[] = []): string {
    const path = join(this.root, 'transcript.jsonl');
    const recorded = readFileSync(join(FIXTURES, 'transcript.jsonl'), 'utf8');
    writeFileSync(path, recorded + more.map((line) => `${JSON.stringify(line)}\n`).join(''));
    return path;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** A transcript line of an assistant turn, in Claude Code's format. */
export function assistantLine(text: string): object {
  return {
    parentUuid: null,
    isSidechain: false,
    type: 'assistant',
    message: { role: 'assistant', type: 'message', content: [{ type: 'text', text }] },
    uuid: `${Math.random()}`,
    timestamp: new Date().toISOString(),
  };
}

/** A transcript line of a user turn, in Claude Code's format. */
export function userLine(text: string): object {
  return {
    parentUuid: null,
    isSidechain: false,
    type: 'user',
    message: { role: 'user', content: text },
    uuid: `${Math.random()}`,
    timestamp: new Date().toISOString(),
  };
}

/**
 * A TCP relay in front of the api: `stop()` takes the server away from the hooks (connections
 * refused, as when it is down) without stopping the api the test reads its state from;
 * `resume()` brings it back on the same address. A request matching `deafTo` reaches the api
 * but its answer (and any later one on that connection) never comes back: a write that lands
 * and whose answer is lost.
 */
export class TcpRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  deafTo?: RegExp;

  private constructor(
    private readonly target: URL,
    private port = 0,
  ) {}

  static async start(target: string): Promise<TcpRelay> {
    const relay = new TcpRelay(new URL(target));
    await relay.resume();
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    const server = createServer((socket) => {
      const upstream = connect(Number(this.target.port), this.target.hostname);
      for (const end of [socket, upstream]) {
        this.sockets.add(end);
        end.on('close', () => this.sockets.delete(end));
        end.on('error', () => {
          socket.destroy();
          upstream.destroy();
        });
      }
      let deaf = false;
      socket.on('data', (chunk: Buffer) => {
        deaf ||= this.deafTo?.test(chunk.toString('latin1')) ?? false;
        upstream.write(chunk);
      });
      socket.on('end', () => upstream.end());
      upstream.on('data', (chunk: Buffer) => {
        if (!deaf) socket.write(chunk);
      });
      upstream.on('end', () => socket.end());
    });
    await new Promise<void>((ready, fail) => {
      server.once('error', fail);
      server.listen(this.port, '127.0.0.1', () => ready());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((done) => server.close(() => done()));
  }
}
