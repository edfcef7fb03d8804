import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';
import { NDJSON } from '../contract/export-format';

/**
 * Lets Fastify accept `application/x-ndjson` request bodies as one UTF-8 string (imports
 * validate every line themselves). Fastify only knows JSON and plain text out of the box,
 * and an unknown type is a 415 before any handler runs, so the parser is registered on the
 * Fastify instance while the module initialises (routes are registered, the server is not
 * ready yet). Without a `bodyLimit` of its own it inherits the server's HTTP_BODY_LIMIT_BYTES,
 * so oversized uploads get the same 413 as any other body.
 */
@Injectable()
export class NdjsonBodyParser implements OnModuleInit {
  constructor(private readonly host: HttpAdapterHost) {}

  onModuleInit(): void {
    const adapter = this.host.httpAdapter;
    // Testing modules without an HTTP server have no adapter; other adapters are not used here.
    if (!adapter || adapter.getType() !== 'fastify') return;
    const fastify = adapter.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser(NDJSON)) return;
    fastify.addContentTypeParser(NDJSON, { parseAs: 'string' }, (_request, body, done) => done(null, body));
  }
}
