import { SetMetadata } from '@nestjs/common';
import { type Permission, type SessionPrincipal, type Toolset } from '@cairn/access';
import { type z } from 'zod';

/**
 * `project`: the call works inside one project; the gateway adds an optional `project`
 * argument and resolves it (explicit, else the token's default) before the tool runs.
 * `session`: tenant-wide.
 */
export type ToolScope = 'project' | 'session';

/** What every MCP tool declares: the contract an agent sees and the permission it needs. */
export interface McpToolSpec<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
  Scope extends ToolScope = ToolScope,
> {
  /** Stable snake_case name (DESIGN §7). */
  readonly name: string;
  readonly title: string;
  readonly toolset: Toolset;
  readonly permission: Permission;
  readonly scope: Scope;
  /** Written for an LLM: what it does, when to use it, an example call. */
  readonly description: string;
  readonly input: Input;
  readonly output: Output;
  readonly annotations: {
    readonly readOnlyHint: boolean;
    readonly destructiveHint?: boolean;
    readonly idempotentHint?: boolean;
  };
  /**
   * Arguments that are secrets (a channel key): left out of the audit entry's argument digest,
   * so the digest of an otherwise known call cannot be used to test guesses of them.
   */
  readonly secretArguments?: readonly string[];
}

interface ToolCallBase {
  readonly principal: SessionPrincipal;
  readonly correlationId: string;
}

/**
 * A `project` tool's call: the executor resolved the project (the `project` argument, else the
 * token's default project, else a `project_required` refusal) and checked the token may use it
 * before the tool runs, so the tool receives a project, never a maybe.
 */
export interface ProjectToolCall extends ToolCallBase {
  readonly project: string;
}

/** A `session` tool's call: tenant-wide, no project. */
export interface SessionToolCall extends ToolCallBase {
  readonly project: null;
}

/** One tool call after authentication, argument validation and (for `project` tools) project resolution. */
export type ToolCall<Scope extends ToolScope = ToolScope> = Scope extends 'project' ? ProjectToolCall : SessionToolCall;

/** A tool's answer: structured content (checked against `output`) and a compact text rendering. */
export interface ToolAnswer<Output> {
  readonly structured: Output;
  /** What the agent reads: short, dense, no JSON noise (the structured copy is there for programs). */
  readonly text: string;
}

export interface McpToolHandler<
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
  Scope extends ToolScope = ToolScope,
> {
  run(input: z.output<Input>, call: ToolCall<Scope>): Promise<ToolAnswer<z.input<Output>>>;
}

export const MCP_TOOL = 'cairn:mcp-tool';

/**
 * Marks a provider as the handler of an MCP tool; the registry finds it at boot. The class must
 * take the spec's input and call: a `session` tool that expects a project does not compile.
 */
export function McpTool<Input extends z.ZodObject, Output extends z.ZodObject, Scope extends ToolScope>(
  spec: McpToolSpec<Input, Output, Scope>,
) {
  const decorate = SetMetadata(MCP_TOOL, spec);
  return <T extends abstract new (...args: never[]) => McpToolHandler<Input, Output, Scope>>(target: T): void => {
    decorate(target);
  };
}

/** Keeps a spec's generic types (and its scope as a literal) while declaring it as a constant. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject, Scope extends ToolScope>(
  spec: McpToolSpec<Input, Output, Scope>,
): McpToolSpec<Input, Output, Scope> {
  return spec;
}
