import { type IncomingMessage, type ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { AuditTrail } from '@cairn/audit';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { REDIS, redisRateLimiter, retryAfterSeconds } from '@cairn/redis';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Redis } from 'ioredis';
import { type KoaContextWithOIDC } from 'oidc-provider';
import { type RateLimiterRedis } from 'rate-limiter-flexible';
import { OAUTH_PATH, OAuthProvider } from '../oauth-provider.service';

const OPENID_CONFIGURATION = '/.well-known/openid-configuration';
/** RFC 8414's name for the same document: MCP clients look here first. */
const AUTHORIZATION_SERVER_METADATA = '/.well-known/oauth-authorization-server';

/**
 * Puts oidc-provider's endpoints on the api's Fastify server when OAuth is enabled: everything
 * under /oauth/ and the two metadata documents at the root. The provider reads its own request
 * bodies (form posts), so these routes, in a scope of their own, leave the body unread; Nest's
 * guards do not apply (the provider authenticates clients itself). Registration is counted per
 * client address in Redis (OAUTH_REGISTRATIONS_PER_HOUR), across replicas, and audited.
 */
@Injectable()
export class OAuthRoutes implements OnModuleInit {
  private readonly logger = new Logger('OAuthRoutes');
  private readonly registrations: RateLimiterRedis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly provider: OAuthProvider,
    private readonly audit: AuditTrail,
    @Inject(REDIS) redis: Redis,
  ) {
    this.registrations = redisRateLimiter(redis, {
      keyPrefix: `${config.queues.prefix}:oauth:register`,
      points: config.oauth.registrationsPerHour,
      durationSeconds: 3_600,
    });
  }

  onModuleInit(): void {
    if (!this.provider.enabled) return;
    const provider = this.provider.instance;
    provider.on('registration_create.success', (ctx: KoaContextWithOIDC, client: { clientId: string }) => {
      void this.recordRegistration(ctx, client.clientId);
    });
    const callback = provider.callback() as (req: IncomingMessage, res: ServerResponse) => void;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    void fastify.register((instance, _options, done) => {
      // Leave every body to the provider: it parses form and JSON posts itself, with its own limits.
      instance.removeAllContentTypeParsers();
      instance.addContentTypeParser('*', (_request, _payload, done) => done(null));
      const hand = (request: FastifyRequest, reply: FastifyReply) => {
        void reply.hijack();
        callback(request.raw, reply.raw);
      };
      instance.all(`${OAUTH_PATH}/*`, async (request, reply) => {
        if (request.method === 'POST' && request.url.split('?', 1)[0] === `${OAUTH_PATH}/register`) {
          const refused = await this.spendRegistration(request.ip);
          if (refused !== undefined) {
            return reply
              .code(429)
              .header('retry-after', String(refused))
              .send({ error: 'rate_limited', error_description: `Too many registrations; retry in ${refused} s` });
          }
        }
        hand(request, reply);
      });
      instance.get(OPENID_CONFIGURATION, (request, reply) => hand(request, reply));
      instance.get(AUTHORIZATION_SERVER_METADATA, (request, reply) => {
        // One document under both names; the provider serves it at the OpenID name only.
        request.raw.url = OPENID_CONFIGURATION;
        hand(request, reply);
      });
      done();
    });
  }

  /** Seconds to wait when this address has spent its registrations, else undefined. */
  private async spendRegistration(ip: string): Promise<number | undefined> {
    try {
      await this.registrations.consume(ip);
      return undefined;
    } catch (refusal) {
      const wait = retryAfterSeconds(refusal);
      if (wait === undefined) throw refusal;
      return wait;
    }
  }

  private async recordRegistration(ctx: KoaContextWithOIDC, clientId: string): Promise<void> {
    try {
      await this.audit.record({
        actor: `oauth-client:${clientId}`,
        tenantId: null,
        action: 'oauth.client.register',
        target: clientId,
        outcome: 'success',
        status: 201,
        requestId: null,
        details: { ip: ctx.ip },
      });
    } catch (error) {
      this.logger.warn({ msg: 'could not audit a client registration', err: error });
    }
  }
}
