/**
 * What Claude Code sends a command hook on stdin, per event (its hooks reference and the Agent
 * SDK's `HookInput` types, Claude Code 2.1): the common fields, then each event's own. Only the
 * fields the hooks use are named; the rest are ignored. Parsed by hand, not with zod: a hook
 * runs on every prompt and zod's start-up alone costs more than the latency budget allows.
 */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SessionEnd',
] as const;
export type HookEventName = (typeof HOOK_EVENTS)[number];

interface CommonInput {
  readonly session_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
}

export type HookInput =
  | (CommonInput & { readonly hook_event_name: 'SessionStart'; readonly source: string })
  | (CommonInput & { readonly hook_event_name: 'UserPromptSubmit'; readonly prompt: string })
  | (CommonInput & {
      readonly hook_event_name: 'PostToolUse';
      readonly tool_name: string;
      readonly tool_input: unknown;
      readonly tool_response: unknown;
      readonly tool_use_id?: string;
    })
  | (CommonInput & {
      readonly hook_event_name: 'PostToolUseFailure';
      readonly tool_name: string;
      readonly tool_input: unknown;
      readonly error: string;
      readonly is_interrupt?: boolean;
    })
  | (CommonInput & {
      readonly hook_event_name: 'PreCompact';
      readonly trigger: string;
      readonly custom_instructions: string | null;
    })
  | (CommonInput & { readonly hook_event_name: 'Stop'; readonly stop_hook_active?: boolean })
  | (CommonInput & { readonly hook_event_name: 'SessionEnd'; readonly reason: string });

export type InputOf<E extends HookEventName> = Extract<HookInput, { hook_event_name: E }>;

/** `cairn hook <event>` takes Claude Code's event name or its kebab-case form (`user-prompt-submit`). */
export function eventFromArgument(argument: string): HookEventName | undefined {
  const compact = argument.replace(/[-_]/g, '').toLowerCase();
  return HOOK_EVENTS.find((event) => event.toLowerCase() === compact);
}

/** The input, or why it is not one: the hook then does nothing and says so on stderr. */
export function parseHookInput(text: string, expected: HookEventName): HookInput | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'the hook input on stdin is not JSON' };
  }
  if (!isRecord(value)) return { problem: 'the hook input on stdin is not a JSON object' };
  if (value.hook_event_name !== expected) {
    return { problem: `expected a ${expected} event, got ${JSON.stringify(value.hook_event_name)?.slice(0, 40)}` };
  }
  for (const field of ['session_id', 'cwd'] as const) {
    if (typeof value[field] !== 'string' || value[field] === '') return { problem: `the hook input has no ${field}` };
  }
  const required: Record<HookEventName, readonly string[]> = {
    SessionStart: ['source'],
    UserPromptSubmit: ['prompt'],
    PostToolUse: ['tool_name'],
    PostToolUseFailure: ['tool_name', 'error'],
    PreCompact: ['trigger'],
    Stop: [],
    SessionEnd: ['reason'],
  };
  for (const field of required[expected]) {
    if (typeof value[field] !== 'string') return { problem: `the ${expected} input has no ${field}` };
  }
  return { transcript_path: '', ...value } as unknown as HookInput;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a hook prints on stdout for Claude Code: `hookSpecificOutput` for the event, nothing else. */
export interface HookOutput {
  readonly hookSpecificOutput: {
    readonly hookEventName: HookEventName;
    readonly additionalContext?: string;
    /** PostToolUse: replaces what the model sees of the tool's output (Claude Code 2.1.121+, every tool). */
    readonly updatedToolOutput?: unknown;
    /** PostToolUse of an MCP tool: the same, for Claude Code before 2.1.121. */
    readonly updatedMCPToolOutput?: unknown;
  };
}
