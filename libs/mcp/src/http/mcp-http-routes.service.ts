import { Readable } from 'node:stream';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PERMISSIONS } from '@cairn/access';
import {
  CairnError,
  isConnectionFailure,
  ServiceUnavailableError,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { RequestContext } from '@cairn/observability';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import fastifyCors from '@fastify/cors';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { GATEWAY_ERROR, jsonRpcError, type JsonRpcErrorBody, requestIdOf } from '../json-rpc-errors';
import { invalidParamsOf } from '../request-params';
import { isLoopbackHost } from './gateway-host';
import { envelopeProblem } from './json-rpc-envelope';
import { McpExchanges } from './mcp-exchanges.service';
import { type GateRefusal, McpRequestGate } from './mcp-request-gate.service';
import { issueSessionId, SESSION_HEADER, sessionIdBelongsTo } from './mcp-session-id';

export const MCP_PATH = '/mcp';
const METADATA_PATH = '/.well-known/oauth-protected-resource';
/**
 * Request headers the SDK reads (the 2026-07-28 revision checks `Mcp-Method` and `Mcp-Name`
 * against the body); nothing else is copied into its Request.
 */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id'];
/** What a browser client sends (preflight) and must be able to read (exposed) on /mcp. */
const CORS_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
  'last-event-id',
];
const CORS_EXPOSED_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'www-authenticate', 'retry-after'];
/** The permissions a session token's role may carry on MCP (platform and tenant administration left out). */
const SESSION_TOKEN_SCOPES = Object.entries(PERMISSIONS)
  .filter(([, permission]) => permission.scope === 'project' || permission.scope === 'session')
  .map(([name]) => name);
/**
 * No tool argument is nested anywhere near this deep; past it, recursive code downstream
 * (schema validation, the audit digest, log serialization) would overflow the stack.
 */
const MAX_JSON_DEPTH = 64;

/**
 * `POST /mcp` (Streamable HTTP, stateless: a fresh server per request, so any replica answers
 * any request) for both protocol eras the SDK serves, told apart per message by the SDK (see
 * McpExchanges): 2026-07-28 requests carry everything in their `_meta` and have no session;
 * a 2025-era `initialize` gets a session id bound to its token and stored nowhere (see
 * mcp-session-id.ts). `GET`/`DELETE /mcp` → 405, and the RFC 9728 protected resource metadata.
 * Every check before the SDK (Origin, token, rate limits, role) is the same for both eras.
 * Registered as an encapsulated Fastify plugin so /mcp takes its body as raw text (the SDK
 * answers malformed JSON with a JSON-RPC parse error) and every error it answers is JSON-RPC shaped.
 */
@Injectable()
export class McpHttpRoutes implements OnModuleInit {
  private readonly logger = new Logger('McpHttp');

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly gate: McpRequestGate,
    private readonly exchanges: McpExchanges,
  ) {}

  onModuleInit(): void {
    if (this.config.mcp.publicUrl === undefined && !isLoopbackHost(this.config.http.host)) {
      this.logger.warn(
        'MCP_PUBLIC_URL is unset while listening beyond loopback: only a Host naming this machine can name the ' +
          'protected resource, so clients reaching the gateway by another name get no resource metadata; set it',
      );
    }
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(async (instance) => {
      // Browser clients: preflight and CORS headers for the origins the gate allows, on the
      // MCP paths only. Registered first so its onRequest hook covers every route below.
      await instance.register(fastifyCors, {
        delegator: (request, callback) => callback(null, this.corsOptions(request)),
      });
      instance.removeAllContentTypeParsers();
      instance.addContentTypeParser(
        '*',
        { parseAs: 'string', bodyLimit: this.config.http.bodyLimitBytes },
        (_r, body, next) => next(null, body),
      );
      instance.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
        if (isConnectionFailure(error) || (error instanceof CairnError && error.status === 503)) {
          // The database dropped out (token lookup, rate limits): retryable, so 503 with
          // Retry-After as on REST, not the -32603 of a bug.
          this.logger.warn({ msg: 'MCP request met an unavailable dependency', correlationId: request.id });
          // A 503 of our own (an authorization server's keys out of reach) keeps its message.
          const unavailable =
            error instanceof CairnError && !isConnectionFailure(error)
              ? error
              : new ServiceUnavailableError(
                  `The database is unreachable for the moment; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s`,
                );
          void reply
            .status(503)
            .headers(unavailable.headers)
            .send(
              jsonRpcError(
                requestIdOf(parseJson(typeof request.body === 'string' ? request.body : '')),
                GATEWAY_ERROR.unavailable,
                unavailable.message,
                {
                  code: unavailable.code,
                  retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
                },
              ),
            );
          return;
        }
        const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
        if (status === 500) this.logger.error({ msg: 'MCP request failed', correlationId: request.id, err: error });
        const message = status === 500 ? `Internal error (correlation id ${request.id})` : error.message;
        const code =
          status === 500 ? GATEWAY_ERROR.internal : status === 400 ? GATEWAY_ERROR.parse : GATEWAY_ERROR.invalidRequest;
        void reply.status(status).send(jsonRpcError(null, code, message));
      });
      instance.post(MCP_PATH, (request, reply) => this.handle(request, reply));
      for (const method of ['GET', 'DELETE'] as const) {
        instance.route({ method, url: MCP_PATH, handler: (_request, reply) => this.methodNotAllowed(reply) });
      }
      instance.get(METADATA_PATH, (request, reply) => this.metadata(request, reply));
      instance.get(`${METADATA_PATH}${MCP_PATH}`, (request, reply) => this.metadata(request, reply));
    });
  }

  private async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const metadataUrl = this.metadataUrl(request);
    const originRefusal = this.gate.checkOrigin(request);
    if (originRefusal) return this.refuse(reply, originRefusal);
    const auth = await this.gate.authenticate(request, metadataUrl);
    if ('refusal' in auth) return this.refuse(reply, auth.refusal);
    const { principal } = auth;
    request.tenantId = principal.tenant.id;
    const raw = typeof request.body === 'string' ? request.body : '';
    const message = parseJson(raw);
    const id = requestIdOf(message);
    // A batch (still served to 2025-03-26 clients) spends one request per message it carries.
    const requests = Array.isArray(message) ? Math.max(1, message.length) : 1;
    const limited = await this.gate.rateLimit(principal, id, requests);
    if (limited) return this.refuse(reply, limited);
    if (nestedDeeperThan(message, MAX_JSON_DEPTH)) {
      const error = jsonRpcError(
        id,
        GATEWAY_ERROR.invalidRequest,
        `Invalid Request: JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
      );
      return reply.status(400).send(error);
    }
    // A body that parsed is handed over parsed; one that did not goes raw, for the SDK's parse error.
    const webRequest = this.webRequest(request, message === undefined ? raw : undefined);
    const legacy = message === undefined || (await this.exchanges.isLegacy(webRequest, message));
    if (legacy) {
      const refused = this.legacyProblem(request, message, id, principal.tokenId);
      if (refused) return reply.status(refused.status).send(refused.body);
    }
    const forbidden = this.gate.checkToolPermission(principal, message, id, metadataUrl);
    if (forbidden) return this.refuse(reply, forbidden);

    const completion: Record<string, unknown> = {};
    request.logFields = completion;
    const context = { correlationId: request.id, tenantId: principal.tenant.id, completion };
    const exchange = { principal, correlationId: request.id };
    if (!legacy) {
      const response = await RequestContext.run(context, () =>
        this.exchanges.serveModern(webRequest, message, exchange),
      );
      if (response.status >= 500) this.logger.error({ msg: 'MCP request failed', correlationId: request.id });
      return this.send(reply, response, () => undefined, false);
    }
    const { response, done } = await RequestContext.run(context, () =>
      this.exchanges.serveLegacy(webRequest, message, exchange, wantsStream(request, message)),
    );
    if (response.ok && isInitialize(message)) void reply.header(SESSION_HEADER, issueSessionId(principal.tokenId));
    await this.send(reply, response, done, Array.isArray(message));
  }

  /**
   * What the 2025-era leg refuses before the SDK sees the message: a session id this token was
   * not given (404, so the client starts a new session), JSON that is not one JSON-RPC message
   * (or a batch its revision no longer allows), and params that do not fit their method.
   */
  private legacyProblem(
    request: FastifyRequest,
    message: unknown,
    id: string | number | null,
    tokenId: string,
  ): { status: number; body: JsonRpcErrorBody } | undefined {
    const sessionId = request.headers[SESSION_HEADER];
    if (sessionId !== undefined && (typeof sessionId !== 'string' || !sessionIdBelongsTo(sessionId, tokenId))) {
      const text = 'Session not found: this Mcp-Session-Id was not issued to this token; initialize a new session';
      return { status: 404, body: jsonRpcError(id, GATEWAY_ERROR.sessionNotFound, text) };
    }
    const protocolVersion = request.headers['mcp-protocol-version'];
    const notOneMessage =
      message === undefined
        ? undefined
        : envelopeProblem(message, typeof protocolVersion === 'string' ? protocolVersion : undefined);
    if (notOneMessage) return { status: 400, body: jsonRpcError(id, GATEWAY_ERROR.invalidRequest, notOneMessage) };
    const invalid = invalidParamsOf(message);
    if (invalid) return { status: 200, body: jsonRpcError(id, ProtocolErrorCode.InvalidParams, invalid) };
    return undefined;
  }

  /** The web-standard Request the SDK serves, with only the headers it reads. */
  private webRequest(request: FastifyRequest, body: string | undefined): Request {
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    return new Request(`http://gateway${MCP_PATH}`, { method: 'POST', headers, body });
  }

  private async send(reply: FastifyReply, response: Response, done: () => void, batch: boolean): Promise<void> {
    void reply.status(response.status);
    response.headers.forEach((value, name) => void reply.header(name, value));
    if (!response.body) {
      done();
      return reply.send();
    }
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      const stream = Readable.fromWeb(response.body);
      stream.once('close', done);
      return reply.send(stream);
    }
    // The bytes as the transport encoded them: text() would decode them only for Fastify to encode them again.
    const body = Buffer.from(await response.arrayBuffer());
    done();
    if (!batch) return reply.send(body);
    // Fastify counts the length of what it sends; a length the transport set would be stale.
    void reply.removeHeader('content-length');
    return reply.send(asBatchAnswer(body));
  }

  private refuse(reply: FastifyReply, refusal: GateRefusal): FastifyReply {
    return reply.status(refusal.status).headers(refusal.headers).send(refusal.body);
  }

  private methodNotAllowed(reply: FastifyReply): FastifyReply {
    return reply
      .status(405)
      .header('Allow', 'POST')
      .send(
        jsonRpcError(
          null,
          GATEWAY_ERROR.methodNotAllowed,
          'Method not allowed: this stateless endpoint answers POST only',
        ),
      );
  }

  /**
   * RFC 9728 protected resource metadata: what the resource is and how to present a token.
   * 404 when the gateway cannot say what it is (no MCP_PUBLIC_URL, a Host not naming this machine).
   */
  private metadata(request: FastifyRequest, reply: FastifyReply) {
    const base = this.gate.publicBase(request);
    if (base === undefined) {
      return reply
        .status(404)
        .send(
          jsonRpcError(
            null,
            GATEWAY_ERROR.invalidRequest,
            'No protected resource metadata for this host: set MCP_PUBLIC_URL to the URL clients reach the gateway on',
          ),
        );
    }
    // Authorization servers only when OAuth is enabled or external ones are configured
    // (docs/oauth.md): some clients stop sending a configured Authorization header once the
    // metadata names one.
    const { oauth } = this.config;
    const servers = [
      ...(oauth.enabled && oauth.issuer ? [oauth.issuer] : []),
      ...this.config.mcp.authorizationServers.map((server) => server.issuer),
    ];
    const external = servers.length > 0;
    const scopes = external ? this.gate.requiredScopes() : SESSION_TOKEN_SCOPES;
    return {
      resource: `${base}${MCP_PATH}`,
      resource_name: 'Cairn MCP gateway',
      ...(external ? { authorization_servers: servers } : {}),
      bearer_methods_supported: ['header'],
      // With external servers, only the scopes they must grant: a client asks its server for these.
      ...(scopes.length > 0 ? { scopes_supported: scopes } : {}),
      resource_documentation: 'https://github.com/cairn-dev/cairn#connect-an-agent',
    };
  }

  private metadataUrl(request: FastifyRequest): string | undefined {
    const base = this.gate.publicBase(request);
    return base === undefined ? undefined : `${base}${METADATA_PATH}${MCP_PATH}`;
  }

  /** CORS for the MCP paths and allowed origins; `origin: false` leaves a request (and a preflight: 404) alone. */
  private corsOptions(request: FastifyRequest) {
    const path = request.url.split('?')[0];
    const origin = request.headers.origin;
    const mcpPath = path === MCP_PATH || path.startsWith(METADATA_PATH);
    return {
      origin: mcpPath && origin !== undefined && this.gate.allowsOrigin(origin, request) ? origin : false,
      methods: ['POST', 'GET', 'DELETE'],
      allowedHeaders: CORS_REQUEST_HEADERS,
      exposedHeaders: CORS_EXPOSED_HEADERS,
      maxAge: 600,
    };
  }
}

function parseJson(raw: string): unknown {
  try {
    return raw === '' ? undefined : (JSON.parse(raw) as unknown);
  } catch {
    return undefined;
  }
}

/** Iterative (a recursive walk would overflow on exactly the bodies it is meant to catch). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The answer to a batch is an array however many answers it holds (JSON-RPC 2.0 §6); the SDK
 * transport unwraps a single one into a bare object, which a 2025-03-26 client matching
 * answers to its batch cannot read.
 */
function asBatchAnswer(body: Buffer): Buffer {
  const answer = parseJson(body.toString('utf8'));
  if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) return body;
  return Buffer.from(JSON.stringify([answer]));
}

function isInitialize(message: unknown): boolean {
  return (message as { method?: unknown } | undefined)?.method === 'initialize';
}

/** SSE when the client asks for it: progress notifications requested, or event-stream preferred. */
function wantsStream(request: FastifyRequest, message: unknown): boolean {
  const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | undefined)?.params?._meta;
  if (meta?.progressToken !== undefined) return true;
  const accept = request.headers.accept ?? '';
  return accept.trim().toLowerCase().startsWith('text/event-stream');
}
