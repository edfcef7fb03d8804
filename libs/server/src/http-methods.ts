import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import FindMyWay from 'find-my-way';
import { CairnError } from '@cairn/common';
import { sendError } from './all-exceptions.filter';

/** Methods that carry no request body in Cairn's API (RFC 9110 gives DELETE none). */
const BODYLESS_METHODS = new Set(['DELETE', 'OPTIONS']);

interface PathShape {
  readonly pattern: string;
  readonly methods: Set<string>;
}

/**
 * Answers 405 with `Allow` when a path exists under other methods only. Fastify routes per
 * method, so `PATCH …/memories/decay` (declared for POST only) otherwise falls into the
 * neighbouring `PATCH …/memories/:id` and answers that route's validation error, and an
 * unknown method on a known path answers 404. A second router holds every route pattern
 * under one method: its match for a path is the route Fastify would pick if every method
 * were declared, so a request whose own match differs (or is missing) used the wrong path.
 */
export function answerMethodNotAllowed(
  fastify: FastifyInstance,
  routerOptions: FindMyWay.Config<FindMyWay.HTTPVersion.V1>,
  logger: { error(message: unknown): void; warn(message: unknown): void },
): void {
  const shapes = FindMyWay<FindMyWay.HTTPVersion.V1>({ ...routerOptions, defaultRoute: undefined });
  const byPattern = new Map<string, PathShape>();

  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let shape = byPattern.get(route.url);
    if (!shape) {
      shape = { pattern: route.url, methods: new Set() };
      byPattern.set(route.url, shape);
      shapes.on('GET', route.url, () => undefined, shape);
    }
    for (const method of methods) shape.methods.add(method.toUpperCase());
    // Fastify answers HEAD for every GET route (exposeHeadRoutes).
    if (shape.methods.has('GET')) shape.methods.add('HEAD');
  });

  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const best = shapes.find('GET', path)?.store as PathShape | undefined;
    const matched = request.routeOptions?.url;
    if (!best || best.pattern === matched || best.methods.has(request.method)) return;
    // A catch-all OPTIONS route (CORS preflight) is a real answer for every path.
    if (request.method === 'OPTIONS' && matched !== undefined) return;
    const allow = [...best.methods].sort().join(', ');
    sendError(
      new CairnError(405, 'method_not_allowed', `${request.method} is not allowed here; use ${allow}`, undefined, {
        allow,
      }),
      request,
      reply,
      logger,
    );
    return reply;
  });
}

/**
 * The body parsers, registered here instead of by Nest (`bodyParser: false`). Every REST body
 * is JSON: Fastify's own `text/plain` parser is removed, so a body of any other type answers 415
 * `unsupported_media_type` on every route (a text body reached validation and answered 400
 * "expected object, received string"; a form body could even pass it). One rule differs from
 * Fastify's JSON parser: `DELETE` with `Content-Type: application/json` and an empty body is
 * what many HTTP clients send by default, and the parser refuses the empty body with 400.
 * Body-less methods accept it; everything else keeps the default parser (and its
 * prototype-poisoning refusal).
 */
export function registerBodyParsers(fastify: FastifyInstance): void {
  const { bodyLimit } = fastify.initialConfig;
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    if (body === '' && BODYLESS_METHODS.has(request.method)) {
      done(null, undefined);
      return;
    }
    void parseJson(request, body.toString(), done);
  });
}
