import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { expectCommittedFile, prettyJson } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '415', '429', '503'];
type Operation = {
  operationId: string;
  responses: Record<string, { $ref?: string }>;
  security?: Record<string, string[]>[];
};

/**
 * The OpenAPI document is a public contract (clients are generated from it). It is committed
 * as apps/api/contract/openapi.json, so every change to it is deliberate and shows in review.
 */
describe('the OpenAPI contract', () => {
  let api: ApiHarness;
  let doc: any;
  beforeAll(async () => {
    api = await startApi();
    const response = await api.client.get('/docs/json');
    expect(response.status).toBe(200);
    doc = response.body;
  });
  afterAll(() => api.close());

  const operations = (): [string, string, Operation][] =>
    Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => [path, method, operation] as [string, string, Operation]),
    );

  it('is exactly the committed document', () => {
    expectCommittedFile(join(__dirname, '..', 'contract', 'openapi.json'), prettyJson(doc));
  });

  it('is a valid OpenAPI 3.1 document (checked by swagger-parser against the official schema)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeDefined();
  });

  it('uses only 3.1 null handling: no 3.0 `nullable`, and nullable strings stay strings', () => {
    const text = JSON.stringify(doc);
    expect(text).not.toContain('"nullable"');
    const page = doc.components.schemas.MemoryPageDto_Output;
    expect(page.properties.nextCursor).toMatchObject({ type: ['string', 'null'] });
    const author = page.properties.items.items.properties.author.properties;
    expect(author.agentId).toMatchObject({ type: ['string', 'null'] });
    expect(author.userId).toMatchObject({ type: ['string', 'null'] });
  });

  it('documents the shared error body on every operation that can fail', () => {
    expect(doc.components.schemas.ErrorBodyDto).toMatchObject({
      required: expect.arrayContaining(['error', 'correlationId']),
      properties: { error: { required: expect.arrayContaining(['code', 'message']) } },
    });
    for (const status of ERROR_STATUSES) {
      expect(doc.components.responses[`Error${status}`].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorBodyDto',
      });
    }
    // The answers that ask the client to come back say when, in a header the document names.
    for (const [status, required] of [
      ['429', true],
      // Not on the bare 503 of a replica that is shutting down (Fastify's, before any route runs).
      ['503', false],
    ] as const) {
      expect(doc.components.responses[`Error${status}`].headers['Retry-After']).toMatchObject({
        required,
        schema: { type: 'integer', minimum: 1 },
      });
    }
    // The ways in for people without credentials yet (docs/sign-in.md) are public: checked below.
    const signIn = operations().filter(([, , operation]) => operation.operationId.startsWith('SignInController_'));
    expect(signIn.map(([path, method]) => `${method} ${path}`).sort()).toEqual([
      'get /v1/session/providers',
      'post /v1/session/bootstrap',
      'post /v1/session/login',
      'post /v1/session/password',
    ]);
    for (const [path, , operation] of signIn) {
      const documented = Object.keys(operation.responses);
      // They take no bearer token: the document lifts its global requirement for them.
      expect({ operation: operation.operationId, security: operation.security }).toEqual({
        operation: operation.operationId,
        security: [],
      });
      // Sign-in and bootstrap refuse credentials (401, 403) and throttle attempts (429).
      if (path.endsWith('/login') || path.endsWith('/bootstrap')) {
        expect(documented).toEqual(expect.arrayContaining(['400', '401', '403', '429', '503']));
      }
    }
    // Sign-in through an identity provider is browser navigation: every answer, a refusal too, is a redirect.
    const federated = operations().filter(([, , operation]) => operation.operationId.startsWith('OidcController_'));
    expect(federated.map(([path, method]) => `${method} ${path}`).sort()).toEqual([
      'get /v1/session/oidc/{provider}/callback',
      'get /v1/session/oidc/{provider}/start',
    ]);
    for (const [, , operation] of federated) {
      expect(Object.keys(operation.responses)).toEqual(['303']);
      expect(operation.security).toEqual([]);
    }
    // The authorization server sends a browser here (docs/oauth.md): it only passes it on to the console.
    const consentEntry = operations().find(
      ([, , operation]) => operation.operationId === 'OAuthInteractionsController_start',
    );
    expect(consentEntry?.[2].security).toEqual([]);
    expect(Object.keys(consentEntry?.[2].responses ?? {})).toContain('303');
    const authenticated = operations().filter(
      ([path, , operation]) =>
        path.startsWith('/v1/') &&
        !/^(SignIn|Oidc)Controller_/.test(operation.operationId) &&
        operation !== consentEntry?.[2],
    );
    expect(authenticated.length).toBeGreaterThan(40);
    for (const [path, method, operation] of authenticated) {
      const documented = Object.keys(operation.responses);
      // 503 + Retry-After: the database (token lookups included) is unreachable for the moment.
      const expected = ['400', '401', '403', '429', '503'];
      if (['post', 'put', 'patch'].includes(method)) expected.push('404', '409', '413', '415');
      // A DELETE may carry a body too: it is parsed (and refused) like any other.
      if (method === 'delete') expected.push('413', '415');
      if (path.includes('{')) expected.push('404');
      expect({ operation: operation.operationId, documented, security: operation.security }).toEqual({
        operation: operation.operationId,
        documented: expect.arrayContaining(expected),
        // The global bearer requirement holds (no operation-level override).
        security: undefined,
      });
      for (const status of ERROR_STATUSES.filter((s) => documented.includes(s))) {
        expect(operation.responses[status]).toEqual({ $ref: `#/components/responses/Error${status}` });
      }
    }
  });
});
