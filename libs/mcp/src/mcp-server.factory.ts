import { Injectable, Logger } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { TenantEntry } from '@cairn/tenancy';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { ToolExecutor } from './tool-executor.service';
import { ToolRegistry } from './tool.registry';
import { McpCatalog } from './mcp-catalog.registry';
import { ProtocolError } from './json-rpc-errors';
import { matchTemplate } from './resource-template';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './server-info';

/** The MCP specification's code for a resource that does not exist (or may not be seen). */
const RESOURCE_NOT_FOUND = -32002;

/**
 * Builds the SDK's low-level `Server` for one stateless request. Everything costly (tool
 * schemas, validators, discovery) was prepared at boot, so a request pays only for a few
 * handler registrations: no schema compilation, no per-request tool objects.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('McpServer');
  /**
   * Shared by every per-request server: without it the SDK builds a fresh Ajv instance (with
   * its formats) in each `Server` constructor, which was ~2.5% of the gateway's CPU per call.
   * It only validates elicitation answers and holds no per-client state.
   */
  private readonly jsonSchemaValidator = new AjvJsonSchemaValidator();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly executor: ToolExecutor,
    private readonly catalog: McpCatalog,
    private readonly entry: TenantEntry,
  ) {}

  create(principal: SessionPrincipal, correlationId: string): Server {
    const server = new Server(SERVER_INFO, {
      // logging: the SDK then answers logging/setLevel (with {}), which clients send without
      // asking; the gateway emits no log notifications, which the capability allows.
      capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: this.jsonSchemaValidator,
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: this.registry.visibleTo(principal).map((tool) => tool.listing as Tool),
    }));
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = this.executor.find(request.params.name, principal);
      return this.executor.call(tool, request.params.arguments, principal, correlationId);
    });
    server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
      resourceTemplates: this.catalog.resourcesFor(principal).map(({ spec }) => ({
        uriTemplate: spec.uriTemplate,
        name: spec.name,
        title: spec.title,
        description: spec.description,
        mimeType: spec.mimeType,
      })),
    }));
    server.setRequestHandler(ListResourcesRequestSchema, async () => {
      const lists = await this.inTenant(
        principal,
        () =>
          Promise.all(
            this.catalog.resourcesFor(principal).map(async ({ spec, handler }) => {
              const items = await handler.list(principal);
              return items.map((item) => ({ ...item, mimeType: spec.mimeType, description: spec.description }));
            }),
          ),
        correlationId,
      );
      return { resources: lists.flat() };
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      for (const { spec, handler } of this.catalog.resourcesFor(principal)) {
        const params = matchTemplate(spec.uriTemplate, request.params.uri);
        if (!params) continue;
        const contents = await this.inTenant(principal, () => handler.read(params, principal), correlationId);
        return { contents: [contents] };
      }
      throw new ProtocolError(RESOURCE_NOT_FOUND, `Resource not found: ${request.params.uri.slice(0, 200)}`);
    });
    server.setRequestHandler(ListPromptsRequestSchema, () => ({
      prompts: this.catalog.promptList().map(({ spec }) => ({
        name: spec.name,
        title: spec.title,
        description: spec.description,
        arguments: [...spec.arguments],
      })),
    }));
    server.setRequestHandler(GetPromptRequestSchema, (request) => {
      const prompt = this.catalog.prompt(request.params.name);
      if (!prompt)
        throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${request.params.name.slice(0, 64)}`);
      const rendered = withoutSdkPrefix(() => prompt.handler.render(request.params.arguments ?? {}, principal));
      return {
        description: rendered.description,
        messages: [{ role: 'user' as const, content: { type: 'text' as const, text: rendered.text } }],
      };
    });
    return server;
  }

  /** Runs in the caller's tenant; domain errors become clean protocol errors, others say nothing. */
  private async inTenant<T>(principal: SessionPrincipal, fn: () => Promise<T>, correlationId: string): Promise<T> {
    try {
      return await this.entry.run(principal.tenant, fn);
    } catch (error) {
      if (error instanceof ProtocolError) throw error;
      if (error instanceof McpError) throw ProtocolError.fromMcpError(error);
      if (error instanceof CairnError) {
        const code = error.status === 404 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams;
        throw new ProtocolError(code, error.message, { code: error.code });
      }
      this.logger.error({ msg: 'resource request failed', correlationId, err: error });
      throw new ProtocolError(ErrorCode.InternalError, `Internal error (correlation id ${correlationId})`);
    }
  }
}

/** Runs a handler of another library, turning an `McpError` it throws into a `ProtocolError` (no doubled prefix). */
function withoutSdkPrefix<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw error instanceof McpError ? ProtocolError.fromMcpError(error) : error;
  }
}
