import { createHash } from 'node:crypto';
import { mkdir, open, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type HookContext } from './hook-context';
import { isRecord, type HookOutput, type InputOf } from './hook-input';
import { fileSafe } from './hook-state';
import { type HookWrite, sendOrQueue } from './hook-writes';
import {
  CAPTURE_MIN_CHARS,
  capturedOutput,
  capturedText,
  clip,
  isMcpTool,
  pointerText,
  replaceable,
} from './tool-capture';

/** A capture the agent waits for (its output may be replaced) gives up after this long and leaves the output as it was. */
export const CAPTURE_BUDGET_MS = 5_000;
/** Error events per session at most: a failing loop must not flood other agents' briefings. */
const ERRORS_PER_SESSION = 20;
const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/**
 * PostToolUse: large outputs of Bash, Read, WebFetch, Grep and MCP tools go to the project
 * knowledge base (the server scans them for secrets; fetched pages and MCP answers are stored as
 * external, returned labelled untrusted). Of Bash, WebFetch and MCP tools, the agent then reads
 * a pointer and summary instead (`updatedToolOutput`); Read and Grep output stays as it was (an
 * edit needs the exact text). Files written and approved plans become session events.
 */
export async function postToolUse(ctx: HookContext, input: InputOf<'PostToolUse'>): Promise<HookOutput | undefined> {
  const tool = input.tool_name;
  if (FILE_TOOLS.has(tool)) {
    await fileWritten(ctx, input);
    return undefined;
  }
  if (tool === 'ExitPlanMode') {
    await planApproved(ctx, input);
    return undefined;
  }
  const output = capturedOutput(tool, input.tool_input, input.tool_response);
  if (!output || output.text.length < CAPTURE_MIN_CHARS) return undefined;
  const outcome = await sendOrQueue(
    ctx,
    {
      kind: 'kb_document',
      body: {
        source: output.source,
        title: output.title,
        text: capturedText(output.text),
        sourceType: output.sourceType,
      },
    },
    Math.max(200, ctx.remainingMs(CAPTURE_BUDGET_MS)),
  );
  if (outcome.status !== 'sent') {
    ctx.warn(
      `${tool} output ${outcome.status === 'queued' ? 'queued, left as it was' : 'not captured'}: ${outcome.reason}`,
    );
    return undefined;
  }
  const documentId = documentIdOf(outcome.answer);
  if (!replaceable(tool) || !documentId) return undefined;
  const pointer = pointerText(tool, output, documentId);
  return {
    hookSpecificOutput: {
      hookEventName: 'PostToolUse',
      updatedToolOutput: pointer,
      // Claude Code before 2.1.121 replaced only MCP tools' output, through this field.
      ...(isMcpTool(tool) && { updatedMCPToolOutput: [{ type: 'text', text: pointer }] }),
    },
  };
}

/** PostToolUseFailure of Bash: an error event (the command and the first lines of the error), once per distinct failure. */
export async function postToolUseFailure(ctx: HookContext, input: InputOf<'PostToolUseFailure'>): Promise<undefined> {
  if (input.is_interrupt) return undefined;
  const command =
    isRecord(input.tool_input) && typeof input.tool_input.command === 'string' ? input.tool_input.command : '';
  const firstLine = input.error.split(/\r?\n/).find((line) => line.trim() !== '') ?? input.error;
  const marker = await firstTime(
    ctx,
    input.session_id,
    'error',
    `${input.tool_name}\n${command}\n${firstLine}`,
    ERRORS_PER_SESSION,
  );
  if (!marker) return undefined;
  await logEvent(ctx, {
    kind: 'session_event',
    body: {
      kind: 'error',
      summary: clip(`${input.tool_name} failed: ${command ? `\`${clip(command, 120)}\`: ` : ''}${firstLine}`, 480),
      details: {
        tool: input.tool_name,
        command: clip(command, 1_000),
        error: input.error.slice(0, 2_000),
        session: input.session_id,
      },
    },
  });
  return undefined;
}

async function fileWritten(ctx: HookContext, input: InputOf<'PostToolUse'>): Promise<void> {
  const fields = isRecord(input.tool_input) ? input.tool_input : {};
  const path =
    typeof fields.file_path === 'string'
      ? fields.file_path
      : typeof fields.notebook_path === 'string'
        ? fields.notebook_path
        : undefined;
  if (!path || !(await firstTime(ctx, input.session_id, 'file', path))) return;
  const shown = relativeTo(ctx.cwd, path);
  await logEvent(ctx, {
    kind: 'session_event',
    body: {
      kind: 'file_written',
      summary: clip(`${input.tool_name === 'Write' ? 'Wrote' : 'Edited'} ${shown}`, 480),
      details: { path: shown, tool: input.tool_name, session: input.session_id },
    },
  });
}

async function planApproved(ctx: HookContext, input: InputOf<'PostToolUse'>): Promise<void> {
  const plan = isRecord(input.tool_input) && typeof input.tool_input.plan === 'string' ? input.tool_input.plan : '';
  if (!plan.trim()) return;
  const title =
    plan
      .split(/\r?\n/)
      .find((line) => line.trim() !== '')
      ?.replace(/^#+\s*/, '') ?? 'plan';
  await logEvent(ctx, {
    kind: 'session_event',
    body: {
      kind: 'decision',
      summary: clip(`Plan approved: ${title}`, 480),
      details: { plan: plan.slice(0, 6_000), session: input.session_id },
    },
  });
}

async function logEvent(ctx: HookContext, write: HookWrite): Promise<void> {
  const outcome = await sendOrQueue(ctx, write, Math.max(200, ctx.remainingMs(CAPTURE_BUDGET_MS)));
  if (outcome.status !== 'sent')
    ctx.warn(`event ${outcome.status === 'queued' ? 'queued' : 'not recorded'}: ${outcome.reason}`);
}

/**
 * True the first time this session reports `key` of `kind` (and while fewer than `cap` of that
 * kind were reported): a marker file created exclusively, so two hooks running at once agree.
 */
async function firstTime(ctx: HookContext, session: string, kind: string, key: string, cap?: number): Promise<boolean> {
  const dir = join(ctx.paths.stateDir, 'hooks', 'session-events');
  const prefix = `${fileSafe(session)}-${kind}-`;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (cap !== undefined) {
    const taken = (await readdir(dir)).filter((name) => name.startsWith(prefix)).length;
    if (taken >= cap) return false;
  }
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 20);
  try {
    await (await open(join(dir, `${prefix}${digest}`), 'wx', 0o600)).close();
    return true;
  } catch {
    return false;
  }
}

function relativeTo(cwd: string, path: string): string {
  const base = cwd.endsWith('/') ? cwd : `${cwd}/`;
  return path.startsWith(base) ? path.slice(base.length) : path;
}

function documentIdOf(answer: unknown): string | undefined {
  return isRecord(answer) && isRecord(answer.document) && typeof answer.document.id === 'string'
    ? answer.document.id
    : undefined;
}
