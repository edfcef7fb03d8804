import { autoLearn } from './auto-learn.hook';
import { type HookContext, type HookIo, HookSkipped, kebab, resolveHookContext } from './hook-context';
import { eventFromArgument, HOOK_EVENTS, type HookInput, type HookOutput, parseHookInput } from './hook-input';
import { postToolUse, postToolUseFailure } from './post-tool-use.hook';
import { preCompact } from './pre-compact.hook';
import { sessionStart } from './session-start.hook';
import { userPromptSubmit } from './user-prompt-submit.hook';

/** Hook inputs larger than this (a Read of a huge file) are not read: the hook lets that event pass. */
const MAX_INPUT_BYTES = 32 * 1024 * 1024;

export const HOOK_USAGE = `usage: cairn hook <event>  (reads Claude Code's hook input JSON on stdin)
events: ${HOOK_EVENTS.map(kebab).join(', ')}
Run by the Claude Code plugin (clients/claude-code); docs/hooks.md says what each one sends.
Every hook exits 0: when Cairn is away, slow or not configured, the session goes on and one
line on stderr says why. Turn hooks off with CAIRN_HOOKS=off or CAIRN_HOOKS_DISABLE=<events>.`;

/** The event's hook, by the input's own event name (parseHookInput checked it is the one asked for). */
function handle(ctx: HookContext, input: HookInput): Promise<HookOutput | undefined> {
  switch (input.hook_event_name) {
    case 'SessionStart':
      return sessionStart(ctx, input);
    case 'UserPromptSubmit':
      return userPromptSubmit(ctx, input);
    case 'PostToolUse':
      return postToolUse(ctx, input);
    case 'PostToolUseFailure':
      return postToolUseFailure(ctx, input);
    case 'PreCompact':
      return preCompact(ctx, input);
    case 'Stop':
    case 'SessionEnd':
      return autoLearn(ctx, input);
  }
}

/**
 * `cairn hook <event>`: one Claude Code hook. Reads the event's JSON on stdin, does its work
 * against the Cairn server, prints Claude Code's output JSON (or nothing) and exits 0 whatever
 * happened: a hook fails open. Exit 1 only for a command line that names no event (a person
 * typed it; exit 2 would block a prompt in Claude Code, so it is never used).
 */
export async function runHook(argv: readonly string[], io: HookIo): Promise<number> {
  const argument = argv[0] ?? '';
  if (argument === '--help' || argument === '-h') {
    io.stdout.write(`${HOOK_USAGE}\n`);
    return 0;
  }
  const event = eventFromArgument(argument);
  if (!event) {
    io.stderr.write(`cairn hook: unknown event "${argument.slice(0, 40)}"\n${HOOK_USAGE}\n`);
    return 1;
  }
  const warn = (line: string) => io.stderr.write(`cairn ${kebab(event)}: ${line}\n`);
  const text = await readInput(io.stdin);
  if (text === undefined) {
    warn(`hook input over ${MAX_INPUT_BYTES / 1024 / 1024} MB: skipped`);
    return 0;
  }
  const input = parseHookInput(text, event);
  if ('problem' in input) {
    warn(input.problem);
    return 0;
  }
  let ctx: HookContext | undefined;
  try {
    ctx = await resolveHookContext(event, io, input.cwd);
    const output = await handle(ctx, input);
    if (output) io.stdout.write(`${JSON.stringify(output)}\n`);
  } catch (error) {
    if (error instanceof HookSkipped) {
      if (!error.quiet) warn(error.message);
    } else {
      warn(`failed, the session goes on: ${error instanceof Error ? error.message : String(error)}`);
    }
  } finally {
    ctx?.close();
  }
  return 0;
}

/** All of stdin as text, or undefined past MAX_INPUT_BYTES (drained, so Claude Code's write never blocks). */
async function readInput(stdin: NodeJS.ReadableStream): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size <= MAX_INPUT_BYTES) chunks.push(buffer);
  }
  return size > MAX_INPUT_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}
