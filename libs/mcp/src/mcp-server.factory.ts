import { Injectable, Logger } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { CairnError } from '@cairn/common';
import { TenantEntry } from '@cairn/tenancy';
import { ProtocolErrorCode, Server, type ServerOptions, type Tool } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { ToolExecutor } from './tool-executor.service';
import { ToolRegistry } from './tool.registry';
import { McpCatalog } from './mcp-catalog.registry';
import { ProtocolError } from './json-rpc-errors';
import { matchTemplate } from './resource-template';
import { SERVER_INFO, SERVER_INSTRUCTIONS } from './server-info';

/**
 * How long a 2026-07-28 client may reuse a list result before asking again (SEP-2549). The
 * lists a token sees are fixed for its lifetime (role and toolsets are set at issue) and change
 * otherwise only with a deployment, so a few minutes saves a round trip per call without
 * leaving an upgraded catalogue unseen for long. 2025-era answers carry no cache fields.
 */
const LIST_TTL_MS = 5 * 60_000;
/**
 * Per operation, as the SDK's 2026-07-28 codec fills `ttlMs`/`cacheScope`. `private` wherever
 * the answer depends on the token (tools by role and toolsets, resources by project scope);
 * prompts and discovery say the same to every caller of the deployment. `resources/list` and
 * `resources/read` reflect data another agent may change at any moment: never reused.
 */
const CACHE_HINTS: ServerOptions['cacheHints'] = {
  'server/discover': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
  'tools/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'prompts/list': { ttlMs: LIST_TTL_MS, cacheScope: 'public' },
  'resources/templates/list': { ttlMs: LIST_TTL_MS, cacheScope: 'private' },
  'resources/list': { ttlMs: 0, cacheScope: 'private' },
  'resources/read': { ttlMs: 0, cacheScope: 'private' },
};

/**
 * Builds the SDK's low-level `Server` for one stateless request, of either protocol era: the
 * same handlers answer a 2025-era request (after `initialize`, or without it) and a 2026-07-28
 * one (per-request `_meta`, `server/discover`), the era being the serving entry's business.
 * Everything costly (tool schemas, validators, discovery) was prepared at boot, so a request
 * pays only for a few handler registrations: no schema compilation, no per-request tool objects.
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
      // logging: the SDK then answers logging/setLevel (with {}), which 2025-era clients send
      // without asking; the gateway emits no log notifications, which the capability allows.
      capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} },
      instructions: SERVER_INSTRUCTIONS,
      jsonSchemaValidator: this.jsonSchemaValidator,
      cacheHints: CACHE_HINTS,
    });
    server.setRequestHandler('tools/list', () => ({
      tools: this.registry.visibleTo(principal).map((tool) => tool.listing as Tool),
    }));
    server.setRequestHandler('tools/call', async (request) => {
      const tool = this.executor.find(request.params.name, principal);
      const result = await this.executor.call(tool, request.params.arguments, principal, correlationId);
      // The SDK's own projection of a result onto the negotiated revision (its codec, not ours).
      return server.projectCallToolResult(result, tool.listing.outputSchema as Record<string, unknown> | undefined);
    });
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: this.catalog.resourcesFor(principal).map(({ spec }) => ({
        uriTemplate: spec.uriTemplate,
        name: spec.name,
        title: spec.title,
        description: spec.description,
        mimeType: spec.mimeType,
      })),
    }));
    server.setRequestHandler('resources/list', async () => {
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
    server.setRequestHandler('resources/read', async (request) => {
      for (const { spec, handler } of this.catalog.resourcesFor(principal)) {
        const params = matchTemplate(spec.uriTemplate, request.params.uri);
        if (!params) continue;
        const contents = await this.inTenant(principal, () => handler.read(params, principal), correlationId);
        return { contents: [contents] };
      }
      throw resourceNotFound(request.params.uri);
    });
    server.setRequestHandler('prompts/list', () => ({
      prompts: this.catalog.promptList().map(({ spec }) => ({
        name: spec.name,
        title: spec.title,
        description: spec.description,
        arguments: [...spec.arguments],
      })),
    }));
    server.setRequestHandler('prompts/get', (request) => {
      const prompt = this.catalog.prompt(request.params.name);
      if (!prompt)
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${request.params.name.slice(0, 64)}`);
      const rendered = prompt.handler.render(request.params.arguments ?? {}, principal);
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
      // A domain refusal (not found, not allowed, bad argument) is the request's fault: -32602,
      // which is also what a missing resource answers since SEP-2164.
      if (error instanceof CairnError) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, { code: error.code });
      }
      this.logger.error({ msg: 'resource request failed', correlationId, err: error });
      throw new ProtocolError(ProtocolErrorCode.InternalError, `Internal error (correlation id ${correlationId})`);
    }
  }
}

/**
 * A `resources/read` of a URI no resource serves. -32602 on every revision: the 2026-07-28
 * specification (SEP-2164) replaced the older -32002, and the SDK maps -32002 to -32602 anyway.
 */
function resourceNotFound(uri: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource not found: ${uri.slice(0, 200)}`, { uri });
}
