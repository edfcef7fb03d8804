import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@cairn/process-harness';
import { type Pipeline, startPipeline } from '../../api/test/summaries-harness';
import { CLI_MAIN, HookMachine, REPO_ROOT } from './hook-harness';

const run = promisify(execFile);

/**
 * Claude Code itself (@anthropic-ai/claude-code from npm, its native binary) with this
 * repository's plugin: the manifests pass its own validator, `claude plugin marketplace add` +
 * `claude plugin install cairn@cairn` install it, and a `claude -p` session pointed at an
 * unreachable model API still runs SessionStart, UserPromptSubmit and SessionEnd (they fire
 * before and after the model call), so the plugin's hooks reach the real Cairn server and their
 * context lands in the session's transcript. The other events need a model turn and are covered
 * by hooks.e2e-spec.ts with their documented inputs.
 */
describe('the Claude Code plugin in Claude Code', () => {
  let p: Pipeline;
  let machine: HookMachine;
  let claudeEnv: Record<string, string>;
  const claude = (args: string[], cwd = REPO_ROOT) =>
    run(claudeBinary(), args, { cwd, env: claudeEnv, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });

  beforeAll(async () => {
    p = await startPipeline({ CHAT_PROVIDER: 'none' });
    await p.api.app.listen(0, '127.0.0.1');
    const url = await p.api.app.getUrl();
    machine = new HookMachine({ url, token: p.w.agent.token!, project: p.w.project });
    const stored = await p.w.agent.post(`/v1/projects/${p.w.project}/memories`, {
      content: 'Run the database migrations locally with `npm run db:migrate`.',
    });
    expect(stored.status).toBe(201);
    // `cairn` on the PATH, as `npm install -g` puts it: the plugin's hooks call it by name.
    const bin = join(machine.root, 'bin');
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, 'cairn'), `#!/bin/sh\nexec "${process.execPath}" "${CLI_MAIN}" "$@"\n`);
    chmodSync(join(bin, 'cairn'), 0o755);
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    claudeEnv = machine.env({
      PATH: `${bin}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      CLAUDE_CONFIG_DIR: join(machine.root, '.claude'),
      // No model: the API is a closed port and nothing is retried, so the session ends at its first call.
      ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key',
      ANTHROPIC_BASE_URL: nowhere,
      CLAUDE_CODE_MAX_RETRIES: '0',
      CAIRN_MCP_URL: `${nowhere}/mcp`,
      // What the prompt hook's recall may take before it skips silently: 1 s by default, which a
      // loaded CI machine's cold start of the hook process plus the recall once exceeded. The budget
      // itself is tested in hooks.e2e-spec; here the recalled memory must reach the model.
      CAIRN_RECALL_BUDGET_MS: '10000',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
  });
  afterAll(async () => {
    machine?.remove();
    await p?.close();
  });

  it("passes Claude Code's own validator, strictly, as a marketplace and as a plugin", async () => {
    for (const target of [REPO_ROOT, join(REPO_ROOT, 'clients/claude-code')]) {
      const { stdout } = await claude(['plugin', 'validate', '--strict', '--json', target]);
      const report = JSON.parse(stdout) as { success: boolean; manifest: { errors: unknown[]; warnings: unknown[] } };
      expect({ target, ...report.manifest, success: report.success }).toMatchObject({
        target,
        success: true,
        errors: [],
        warnings: [],
      });
    }
  });

  it('installs from this repository with marketplace add and install cairn@cairn', async () => {
    await claude(['plugin', 'marketplace', 'add', REPO_ROOT]);
    await claude(['plugin', 'install', 'cairn@cairn']);
    const { stdout } = await claude(['plugin', 'list', '--json']);
    expect(stdout).toContain('cairn@cairn');
  });

  it('runs the hooks of a session: the briefing and the recalled memory reach the model, the server records the session', async () => {
    const session = await claude(['-p', 'how do I run the migrations?'], machine.repo).then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    // The model call fails (no API), after the prompt's hooks ran.
    expect(session?.stdout ?? '').toMatch(/API Error|Connection|ECONNREFUSED/i);
    const transcript = transcriptsUnder(join(machine.root, '.claude', 'projects')).join('\n');
    expect(transcript).toContain(`Briefing ${p.w.project}`);
    expect(transcript).toContain('Cairn recalled 1 team memory');
    expect(transcript).toContain('npm run db:migrate');
    const events = (await p.w.member.get(`/v1/projects/${p.w.project}/events?limit=50`)).body.items as {
      kind: string;
    }[];
    expect(events.map((event) => event.kind)).toEqual(expect.arrayContaining(['session_start', 'session_end']));
  });
});

/** The native binary @anthropic-ai/claude-code installs for this platform (what its own wrapper runs). */
function claudeBinary(): string {
  const name = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  try {
    return join(
      dirname(require.resolve(`${name}/package.json`)),
      process.platform === 'win32' ? 'claude.exe' : 'claude',
    );
  } catch {
    throw new Error(
      `${name} is not installed: run npm install (it is an optional dependency of @anthropic-ai/claude-code)`,
    );
  }
}

function transcriptsUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...transcriptsUnder(path));
    else if (name.endsWith('.jsonl')) found.push(readFileSync(path, 'utf8'));
  }
  return found;
}
