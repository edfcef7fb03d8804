import { randomUUID } from 'node:crypto';
import { type IncomingMessage } from 'node:http';
import fastifyCookie from '@fastify/cookie';
import { type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { configuredLimitsOf } from '@cairn/common';
import { type CairnConfig } from '@cairn/config';
import { correlationIdFrom, MetricsService, PinoLoggerService, ReadinessRegistry } from '@cairn/observability';
import { type Logger as PinoLogger } from 'pino';
import { answerMethodNotAllowed, registerBodyParsers } from './http-methods';
import { mountOpenApi } from './openapi';

export interface HttpAppOptions {
  /** Value of the `app` metric label and log field. */
  readonly name: string;
  readonly config: CairnConfig;
  readonly logger: PinoLogger;
  /** Serve the OpenAPI document at /docs (UI) and /docs/json. */
  readonly openApi?: { title: string; description: string };
}

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Builds a Nest application on Fastify with everything every app shares: correlation ids,
 * request logs without secrets, the HTTP duration histogram, body limits and optional
 * OpenAPI docs. Nest routes Fastify's own errors (body parsing, limits) through the global
 * filter, so every error has one shape. Tests use the same function.
 */
export async function createHttpApp(
  rootModule: DynamicModule,
  options: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const { config, logger } = options;
  // Path parameters carry URL-encoded keys (working-memory keys of up to 128 characters).
  const routerOptions = { maxParamLength: 512 };
  const adapter = new FastifyAdapter({
    bodyLimit: config.http.bodyLimitBytes,
    genReqId: (req: IncomingMessage) => correlationIdFrom(req.headers['x-request-id'], randomUUID),
    requestIdHeader: false,
    return503OnClosing: true,
    routerOptions,
    // Deployed behind ingress controllers and load balancers; the first hop is trusted.
    trustProxy: 1,
  });
  const app = await NestFactory.create<NestFastifyApplication>(rootModule, adapter, {
    logger: new PinoLoggerService(logger),
    bufferLogs: true,
    // registerBodyParsers replaces Nest's parsers (empty JSON bodies on DELETE).
    bodyParser: false,
    // Start-up errors reach runMain, which logs them once and exits 1.
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // Before any route is registered: the 405 check learns every route through onRoute.
  answerMethodNotAllowed(fastify, routerOptions, logger);
  registerBodyParsers(fastify);
  // Parses the Cookie header (and lets replies set cookies) for browser sessions (@cairn/accounts);
  // only the api authenticates with a cookie, and only when no Authorization header is sent.
  await app.register(fastifyCookie as never);
  const metrics = app.get(MetricsService);

  const readiness = app.get(ReadinessRegistry);
  fastify.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    // server.close() drops idle keep-alive sockets only once, when shutdown starts; a socket
    // whose response is still in flight would then idle until its keep-alive timeout and
    // hold the drain past its deadline (fastify/fastify#7044). Close it with the response.
    if (readiness.isShuttingDown) reply.header('connection', 'close');
    return payload;
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    const status = reply.statusCode;
    metrics.httpRequestDuration.observe(
      { app: options.name, route, method: request.method, status: String(status) },
      reply.elapsedTime / 1000,
    );
    const line = {
      ...request.logFields,
      correlationId: request.id,
      tenantId: request.tenantId,
      method: request.method,
      route,
      status,
      durationMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (QUIET_ROUTES.has(route)) logger.debug(line, 'request completed');
    else if (status >= 500) logger.error(line, 'request failed');
    else logger.info(line, 'request completed');
  });

  if (options.openApi) mountOpenApi(app, options.openApi, configuredLimitsOf(config));
  await app.init();
  return app;
}
