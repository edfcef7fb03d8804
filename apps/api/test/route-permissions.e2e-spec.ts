import { Controller, Get, Module, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PERMISSIONS, REQUIRED_PERMISSION } from '@cairn/access';
import { PUBLIC_ROUTE } from '@cairn/observability';
import {
  createTestDatabase,
  createTestHttpApp,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { ApiModule } from '../src/api.module';

interface RouteDeclaration {
  route: string;
  permission: string | undefined;
  isPublic: boolean;
}

/** Every handler of every controller the app mounted, with what it declares. */
function registeredRoutes(app: NestFastifyApplication): RouteDeclaration[] {
  const routes: RouteDeclaration[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const path = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        routes.push({
          route: `${RequestMethod[method]} ${`/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1')}`,
          permission: Reflect.getMetadata(REQUIRED_PERMISSION, handler) as string | undefined,
          isPublic: Boolean(
            Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller),
          ),
        });
      }
    }
  }
  return routes;
}

@Controller('v1/forgotten')
class ForgottenController {
  @Get()
  leak(): { secret: string } {
    return { secret: 'should never be served' };
  }
}
@Module({ controllers: [ForgottenController] })
class ForgottenModule {}

describe('every route declares a permission', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl());
    const api = ApiModule.register(config);
    app = await createTestHttpApp({ ...api, imports: [...(api.imports ?? []), ForgottenModule] }, config);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('walks every registered route of the api', () => {
    const routes = registeredRoutes(app).filter((route) => !route.route.includes('/v1/forgotten'));
    expect(routes.length).toBeGreaterThanOrEqual(19);
    const undeclared = routes.filter((route) => !route.isPublic && route.permission === undefined);
    expect(undeclared).toEqual([]);
    const unknown = routes.filter((route) => route.permission !== undefined && !(route.permission in PERMISSIONS));
    expect(unknown).toEqual([]);
    const publicRoutes = routes
      .filter((route) => route.isPublic)
      .map((route) => route.route)
      .sort();
    // Probes, and the ways in for people who hold no credential yet (docs/sign-in.md), and the
    // authorization server's hand-off of a browser to the console's consent page (docs/oauth.md).
    expect(publicRoutes).toEqual([
      'GET /healthz',
      'GET /metrics',
      'GET /readyz',
      'GET /v1/oauth/interactions/:uid',
      'GET /v1/session/oidc/:provider/callback',
      'GET /v1/session/oidc/:provider/start',
      'GET /v1/session/providers',
      'POST /v1/session/bootstrap',
      'POST /v1/session/login',
      'POST /v1/session/password',
    ]);
  });

  it('denies a route that declares nothing, even to the platform admin', async () => {
    const forgotten = registeredRoutes(app).find((route) => route.route === 'GET /v1/forgotten');
    expect(forgotten).toMatchObject({ permission: undefined, isPublic: false });
    const { TEST_ADMIN_TOKEN } = await import('@cairn/testing');
    const response = await new TestClient(app, TEST_ADMIN_TOKEN).get('/v1/forgotten');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('route_not_permitted');
    expect(JSON.stringify(response.body)).not.toContain('should never be served');
  });
});
