import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { CairnError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { sendError } from '@cairn/server';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { CONSOLE_CSP_DIRECTIVES, CONSOLE_PATH, consoleCacheControl } from '../console-policy';

const INDEX = 'index.html';

/**
 * `GET /console/…`: the built single-page app. Files Vite wrote are served as they are (hashed
 * assets cached for a year, index.html never without revalidation); any other path under
 * /console/ is a client route and answers index.html, except under assets/, where a missing
 * file is a 404 (a stale tab asking for an old bundle must not get HTML as JavaScript).
 * Registered as an encapsulated Fastify plugin, so helmet's headers (the CSP above all) apply to
 * these routes only and the JSON API keeps its own. Without a build, every console path answers
 * 503 saying how to build it.
 */
@Injectable()
export class WebConsoleRoutes implements OnModuleInit {
  private readonly logger = new Logger('WebConsole');

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const root = this.config.console.dir;
    const built = existsSync(join(root, INDEX));
    if (!built) this.logger.warn(`the web console is not built (no ${join(root, INDEX)}): /console answers 503`);
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register(async (instance) => {
      await instance.register(fastifyHelmet, {
        contentSecurityPolicy: { useDefaults: false, directives: CONSOLE_CSP_DIRECTIVES },
        frameguard: { action: 'deny' },
        referrerPolicy: { policy: 'same-origin' },
      });
      instance.get(CONSOLE_PATH, (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 308));
      if (!built) {
        for (const url of [`${CONSOLE_PATH}/`, `${CONSOLE_PATH}/*`]) {
          instance.get(url, (request, reply) => this.notBuilt(request, reply));
        }
        return;
      }
      await instance.register(fastifyStatic, {
        root,
        prefix: `${CONSOLE_PATH}/`,
        // One route per file of the build (it never changes while the process runs); the
        // catch-all below answers client routes.
        wildcard: false,
        index: false,
        cacheControl: false,
        setHeaders: (reply, path) => void reply.header('cache-control', consoleCacheControl(path.slice(root.length))),
      });
      const page = (_request: FastifyRequest, reply: FastifyReply) =>
        reply.header('cache-control', 'no-cache').sendFile(INDEX);
      instance.get(`${CONSOLE_PATH}/`, page);
      instance.get(`${CONSOLE_PATH}/*`, (request, reply) => {
        const path = request.url.split('?', 1)[0] ?? '';
        if (path.startsWith(`${CONSOLE_PATH}/assets/`)) {
          sendError(new CairnError(404, 'not_found', 'No such console asset'), request, reply, this.logger);
          return reply;
        }
        return page(request, reply);
      });
    });
  }

  private notBuilt(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    sendError(
      new CairnError(
        503,
        'console_not_built',
        `The web console is not built: run \`npm run build\` (it writes ${this.config.console.dir}), then restart the api`,
      ),
      request,
      reply,
      this.logger,
    );
    return reply;
  }
}
