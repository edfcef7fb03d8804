import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { PERMISSIONS, roleGrants, type SessionPrincipal } from '@cairn/access';
import { type ConfiguredLimits, configuredLimitsOf, slugSchema } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { z } from 'zod';
import { MCP_TOOL, type McpToolHandler, type McpToolSpec } from './contract/mcp-tool';
import { toolJsonSchema } from './schema-compaction';

const TOOL_NAME = /^[a-z][a-z0-9_]{1,63}$/;

/** A tool ready to serve: its validators built and its JSON Schemas rendered once, at boot. */
export interface RegisteredTool {
  readonly spec: McpToolSpec;
  readonly handler: McpToolHandler;
  /** `spec.input` plus the `project` argument for project tools, strict (unknown keys refused). */
  readonly input: z.ZodObject;
  /** The `tools/list` entry, rendered once: listing tools costs no schema work per request. */
  readonly listing: Readonly<Record<string, unknown>>;
}

/** The argument every project tool takes, checked as a slug... */
const projectArgument = slugSchema.optional();
/**
 * ...and listed as a bare optional string: the slug's pattern is the server's to check, and
 * what it is for (another project than the token's default) the server instructions say once
 * instead of every project tool's schema repeating it.
 */
const projectListed = z.string().optional();

/**
 * Every `@McpTool` provider of the application, checked at boot: unique valid names, a
 * known permission, JSON-Schema-renderable input and output. The gateway fails to start
 * rather than serve a tool that could not be described or authorised.
 */
@Injectable()
export class ToolRegistry implements OnModuleInit {
  private readonly tools = new Map<string, RegisteredTool>();
  /** The lengths the configuration sets, which the listings state (memory content, documents). */
  private readonly limits: ConfiguredLimits;

  constructor(
    private readonly discovery: DiscoveryService,
    @Inject(CAIRN_CONFIG) config: CairnConfig,
  ) {
    this.limits = configuredLimitsOf(config);
  }

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const spec = wrapper.metatype
        ? (Reflect.getMetadata(MCP_TOOL, wrapper.metatype) as McpToolSpec | undefined)
        : undefined;
      if (!spec) continue;
      this.add(spec, wrapper.instance as McpToolHandler);
    }
  }

  add(spec: McpToolSpec, handler: McpToolHandler): void {
    if (!TOOL_NAME.test(spec.name)) throw new Error(`MCP tool name "${spec.name}" is not snake_case`);
    if (this.tools.has(spec.name)) throw new Error(`MCP tool "${spec.name}" is registered twice`);
    if (!(spec.permission in PERMISSIONS)) throw new Error(`MCP tool "${spec.name}" needs an unknown permission`);
    if (typeof handler?.run !== 'function') throw new Error(`MCP tool "${spec.name}" has no run()`);
    const withProject = (project: z.ZodType) =>
      (spec.scope === 'project' ? spec.input.extend({ project }) : spec.input).strict();
    const input = withProject(projectArgument);
    const listing = listingOf(spec, withProject(projectListed), this.limits);
    this.tools.set(spec.name, { spec, handler, input, listing });
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  all(): RegisteredTool[] {
    return [...this.tools.values()];
  }

  /** The tools a principal sees: in one of its token's toolsets, and granted by its role. */
  visibleTo(principal: SessionPrincipal): RegisteredTool[] {
    return this.all().filter((tool) => isEnabled(tool, principal) && roleGrants(principal.role, tool.spec.permission));
  }
}

export function isEnabled(tool: RegisteredTool, principal: SessionPrincipal): boolean {
  return principal.toolsets.includes(tool.spec.toolset);
}

function listingOf(spec: McpToolSpec, input: z.ZodObject, limits: ConfiguredLimits): Record<string, unknown> {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: toolJsonSchema(input, 'input', limits),
    outputSchema: toolJsonSchema(spec.output, 'output', limits),
    // `title` once: annotations.title is only the older place for the same display name.
    annotations: {
      readOnlyHint: spec.annotations.readOnlyHint,
      destructiveHint: spec.annotations.destructiveHint ?? false,
      idempotentHint: spec.annotations.idempotentHint ?? false,
      // Cairn only touches its own database: never the open world.
      openWorldHint: false,
    },
    // Which toolset a token enables to see it. (The permission is the server's business: a
    // client cannot act on it, and every session would pay for it.)
    _meta: { 'cairn/toolset': spec.toolset },
  };
}
