import { SetMetadata } from '@nestjs/common';
import { type Permission, type SessionPrincipal, type Toolset } from '@cairn/access';
import { type z } from 'zod';

/** What every MCP tool declares: the contract an agent sees and the permission it needs. */
export interface McpToolSpec<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  /** Stable snake_case name (DESIGN §7). */
  readonly name: string;
  readonly title: string;
  readonly toolset: Toolset;
  readonly permission: Permission;
  /**
   * `project`: the call works inside one project; the gateway adds an optional `project`
   * argument and resolves it (explicit, else the token's default). `session`: tenant-wide.
   */
  readonly scope: 'project' | 'session';
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

/** One tool call after authentication and argument validation. */
export interface ToolCall {
  readonly principal: SessionPrincipal;
  /** The resolved project slug for `project` tools; null for `session` tools. */
  readonly project: string | null;
  readonly correlationId: string;
}

/** A tool's answer: structured content (checked against `output`) and a compact text rendering. */
export interface ToolAnswer<Output> {
  readonly structured: Output;
  /** What the agent reads: short, dense, no JSON noise (the structured copy is there for programs). */
  readonly text: string;
}

export interface McpToolHandler<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodObject = z.ZodObject> {
  run(input: z.output<Input>, call: ToolCall): Promise<ToolAnswer<z.input<Output>>>;
}

export const MCP_TOOL = 'cairn:mcp-tool';

/** Marks a provider as the handler of an MCP tool; the registry finds it at boot. */
export const McpTool = (spec: McpToolSpec): ClassDecorator => SetMetadata(MCP_TOOL, spec);

/** Keeps a spec's generic types while declaring it as a constant. */
export function defineTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: McpToolSpec<Input, Output>,
): McpToolSpec<Input, Output> {
  return spec;
}
