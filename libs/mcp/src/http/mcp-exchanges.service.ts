import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import {
  createMcpHandler,
  isLegacyRequest,
  type McpHttpHandler,
  type McpRequestContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { McpServerFactory } from '../mcp-server.factory';

/** Who a request is served for: what the per-request server needs and the SDK does not carry. */
interface Exchange {
  readonly principal: SessionPrincipal;
  readonly correlationId: string;
}

/** A legacy answer, and what to call once its body has been sent (the server is per request). */
export interface LegacyAnswer {
  readonly response: Response;
  readonly done: () => void;
}

/**
 * Serves one message that the gate admitted, with the SDK, in the protocol era it belongs to:
 *
 * - 2026-07-28 (a per-request `_meta` envelope, no handshake): the SDK's own entry,
 *   `createMcpHandler` in its strict `legacy: 'reject'` posture. It owns that revision's
 *   validation ladder (envelope, `MCP-Protocol-Version`/`Mcp-Method`/`Mcp-Name` against the
 *   body: 400 and -32020 on a mismatch), `server/discover`, `resultType` and the cache fields.
 * - 2025-11-25 and older (`initialize`, or no envelope at all): the SDK's stateless Streamable
 *   HTTP transport, one per request, as before the 2026 revision. The gateway keeps this leg
 *   rather than the entry's built-in fallback because the fallback always answers over SSE,
 *   where the gateway answers JSON unless the client asks for a stream.
 *
 * Both legs build their server with the same factory, so the two eras cannot drift apart; the
 * split between them is the SDK's own classifier (`isLegacyRequest`), the routing the SDK
 * documents for keeping an existing 2025 wiring beside a strict modern handler.
 */
@Injectable()
export class McpExchanges implements OnModuleDestroy {
  private readonly logger = new Logger('McpExchange');
  /**
   * The entry calls its factory with the Request being served: the exchange is found by that
   * object, never by anything the client sent (a token in `authInfo` would be one more copy
   * of the credential in memory, for nothing).
   */
  private readonly exchanges = new WeakMap<Request, Exchange>();
  private readonly modern: McpHttpHandler;

  constructor(private readonly servers: McpServerFactory) {
    this.modern = createMcpHandler((context) => this.serverFor(context), {
      legacy: 'reject',
      // Refusals of the validation ladder are the client's mistake and already answered; a
      // failure of ours is answered 500 and logged by the routes with its correlation id.
      onerror: (error) => this.logger.debug({ msg: 'MCP 2026-07-28 exchange reported', err: error.message }),
    });
  }

  /** Whether the SDK routes this message to the 2025-era serving (no per-request envelope claim). */
  isLegacy(request: Request, message: unknown): Promise<boolean> {
    return isLegacyRequest(request, message);
  }

  /** A 2026-07-28 message: the SDK's entry serves it end to end and closes its own server. */
  async serveModern(request: Request, message: unknown, exchange: Exchange): Promise<Response> {
    this.exchanges.set(request, exchange);
    try {
      return await this.modern.fetch(request, { parsedBody: message });
    } finally {
      this.exchanges.delete(request);
    }
  }

  /**
   * A 2025-era message (or a body that is not JSON, for the transport's parse error): a fresh
   * server on a fresh stateless transport, answering JSON unless `stream` asks for SSE.
   */
  async serveLegacy(request: Request, message: unknown, exchange: Exchange, stream: boolean): Promise<LegacyAnswer> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !stream,
    });
    const server = this.servers.create(exchange.principal, exchange.correlationId);
    await server.connect(transport);
    const response = await transport.handleRequest(
      request,
      message === undefined ? undefined : { parsedBody: message },
    );
    return { response, done: () => void server.close() };
  }

  async onModuleDestroy(): Promise<void> {
    await this.modern.close();
  }

  private serverFor(context: McpRequestContext) {
    const exchange = context.requestInfo && this.exchanges.get(context.requestInfo);
    // Unreachable through serveModern; a server for nobody must never be built.
    if (!exchange) throw new Error('MCP exchange without an admitted principal');
    return this.servers.create(exchange.principal, exchange.correlationId);
  }
}
