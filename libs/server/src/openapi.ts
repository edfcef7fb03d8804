import { RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiResponse, DECORATORS, DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  type OperationObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { applyConfiguredLimits, type ConfiguredLimits } from '@cairn/common';
import { CHECKS_CREDENTIALS, PUBLIC_ROUTE, REDIRECTS_ERRORS } from '@cairn/observability';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import { ErrorBodyDto } from './error-body.dto';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request: malformed JSON, a field or parameter that fails validation',
  401: 'Missing, invalid, expired or revoked token',
  403: "The token's role, scope or tenant does not allow this",
  404: 'A tenant, project or resource named in the request does not exist (or is not visible)',
  409: 'Conflicts with the current state (an existing slug or email, a concurrent change)',
  413: 'Request body larger than HTTP_BODY_LIMIT_BYTES',
  415: 'Content-Type the operation does not take',
  429: 'Request budget of the token or tenant spent; retry after the Retry-After header',
  503: 'A dependency (PostgreSQL) is unreachable for the moment; retry the same request after the Retry-After header',
};

/** The statuses that tell the client when to come back, and whether every such answer says it. */
const RETRY_AFTER: Record<number, { required: boolean; description: string }> = {
  429: { required: true, description: 'Seconds until the spent budget allows another request' },
  503: {
    // Fastify's own 503 while a replica drains for shutdown comes before any route and carries none.
    required: false,
    description: 'Seconds to wait before retrying (a database outage says 5)',
  },
};

const BODY_METHODS = new Set<RequestMethod>([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH]);

/** What a route's own metadata says about the errors it can answer. */
interface RouteFacts {
  readonly method: RequestMethod;
  readonly isPublic: boolean;
  /** A public route that refuses credentials itself (sign-in): 401, 403 and 429 as well. */
  readonly checksCredentials?: boolean;
  readonly hasPathParams: boolean;
  readonly hasQuery: boolean;
}

/** The error statuses a route can answer; every one shares the ErrorBody shape. */
export function errorStatusesFor(route: RouteFacts): number[] {
  const hasBody = BODY_METHODS.has(route.method);
  const takesInput = hasBody || route.hasPathParams || route.hasQuery;
  const statuses: number[] = [];
  // Authenticated routes may also refuse a token sent in the query string (400).
  if (takesInput || !route.isPublic) statuses.push(400);
  if (!route.isPublic || route.checksCredentials) statuses.push(401, 403);
  // Bodies and queries name projects, memories and documents as much as paths do.
  if (takesInput) statuses.push(404);
  if (!route.isPublic && (hasBody || route.method === RequestMethod.DELETE)) statuses.push(409);
  // A DELETE may carry a body as well: Fastify parses it like any other (size and type checked).
  if (hasBody || route.method === RequestMethod.DELETE) statuses.push(413, 415);
  if (!route.isPublic || route.checksCredentials) statuses.push(429);
  // Every route reads the database (a token lookup at the least) and answers 503 when it is away.
  statuses.push(503);
  return statuses;
}

/** Operations (by operationId) whose documentation differs by what the route's metadata says. */
export interface RouteMarks {
  /** Operations whose body may be left out. */
  readonly optionalBodies: Set<string>;
  /** `@Public()` operations: they take no bearer token, so the document lifts the global requirement. */
  readonly publicOperations: Set<string>;
}

/**
 * Documents the error responses of every route from its metadata (method, `@Public()`, path
 * and query parameters) instead of a hand-kept list per route, so a new route is documented
 * like the others. Decorates the handlers before the document is generated; repeated calls
 * (one per app built in a test run) set the same metadata again.
 */
export function documentErrorResponses(app: NestFastifyApplication): RouteMarks {
  const optionalBodies = new Set<string>();
  const publicOperations = new Set<string>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      const controllerPath = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
        const handler = descriptor?.value as object | undefined;
        if (!descriptor || key === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const handlerPath = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<string, unknown>;
        const isPublic = Boolean(
          Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller),
        );
        if (isPublic) publicOperations.add(`${controller.name}_${key}`);
        // A route that redirects its refusals (to a page that explains them) has no error body to document.
        const redirectsErrors = Reflect.getMetadata(REDIRECTS_ERRORS, handler) === true;
        const statuses = redirectsErrors
          ? []
          : errorStatusesFor({
              method,
              isPublic,
              checksCredentials: Reflect.getMetadata(CHECKS_CREDENTIALS, handler) === true,
              hasPathParams: `${controllerPath}/${handlerPath}`.includes(':'),
              hasQuery: Object.keys(args).some((arg) => arg.startsWith(`${RouteParamtypes.QUERY}:`)),
            });
        // Explicit responses replace swagger's implied success response: state it first (or a redirect's).
        const declared = (Reflect.getMetadata(DECORATORS.API_RESPONSE, handler) ?? {}) as Record<string, unknown>;
        if (!Object.keys(declared).some((status) => /^[23]/.test(status))) {
          const status =
            (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? successStatus(method);
          ApiResponse({ status, description: '' })(prototype, key, descriptor);
        }
        if (bodyIsOptional(controller, key, args)) optionalBodies.add(`${controller.name}_${key}`);
        for (const status of statuses) {
          const retryAfter = RETRY_AFTER[status];
          ApiResponse({
            status,
            description: ERROR_DESCRIPTIONS[status],
            type: ErrorBodyDto,
            ...(retryAfter && {
              headers: {
                'Retry-After': {
                  required: retryAfter.required,
                  description: retryAfter.description,
                  schema: { type: 'integer', minimum: 1 },
                },
              },
            }),
          })(prototype, key, descriptor);
        }
      }
    }
  }
  return { optionalBodies, publicOperations };
}

function successStatus(method: RequestMethod): number {
  return method === RequestMethod.POST ? 201 : 200;
}

/** True when the route's body DTO (a nestjs-zod class) accepts no body at all, e.g. `.default({})`. */
function bodyIsOptional(controller: Type, key: string, args: Record<string, unknown>): boolean {
  const bodyArg = Object.entries(args).find(([arg]) => arg.startsWith(`${RouteParamtypes.BODY}:`));
  if (!bodyArg) return false;
  const index = (bodyArg[1] as { index: number }).index;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, key) ?? []) as unknown[];
  const schema = (types[index] as { schema?: { safeParse?(value: unknown): { success: boolean } } } | undefined)
    ?.schema;
  return schema?.safeParse?.(undefined).success ?? false;
}

/**
 * Operations whose body may be left out say so (nestjs-zod marks every body required), and
 * public ones (sign-in, the sign-in options, a password link) say they need no token.
 */
function markOperations(document: OpenAPIObject, marks: RouteMarks): OpenAPIObject {
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as (OperationObject | undefined)[]) {
      if (!operation) continue;
      const id = operation.operationId ?? '';
      const body = operation.requestBody;
      if (body && !('$ref' in body) && marks.optionalBodies.has(id)) body.required = false;
      if (marks.publicOperations.has(id)) operation.security = [];
    }
  }
  return document;
}

/** nestjs-zod's marker for a DTO property whose JSON Schema `type` is not a single string. */
const NESTJS_ZOD_EMPTY_TYPE = 'x-nestjs_zod-empty-type';

/**
 * nestjs-zod 5.5 hands a nullable top-level DTO property to @nestjs/swagger as
 * `type: ["string", "null"]`, and swagger reads a list of types as "array of the first",
 * so `nextCursor`, `agentId`, … were documented as string arrays. The property keeps
 * nestjs-zod's marker, which no genuine array carries (their `type` is the string "array"):
 * turn those back into the nullable scalar they were. Runs before cleanupOpenApiDoc, which
 * drops the marker.
 */
function restoreNullableProperties(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if (!('properties' in schema) || !schema.properties) continue;
    for (const [name, property] of Object.entries(schema.properties)) {
      if ('$ref' in property || !(NESTJS_ZOD_EMPTY_TYPE in property) || property.type !== 'array') continue;
      const { items, ...rest } = property;
      if (!items || '$ref' in items || typeof items.type !== 'string' || Object.keys(items).length !== 1) continue;
      schema.properties[name] = { ...rest, type: [items.type, 'null'] } as unknown as SchemaObject;
    }
  }
  return document;
}

/**
 * Points every operation's error responses at one `components.responses` entry per status,
 * so the document states the error contract once instead of once per operation.
 */
function shareErrorResponses(document: OpenAPIObject): OpenAPIObject {
  const shared: Record<string, ResponseObject> = {};
  for (const pathItem of Object.values(document.paths)) {
    for (const operation of Object.values(pathItem) as (OperationObject | undefined)[]) {
      if (!operation?.responses) continue;
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response || !(Number(status) in ERROR_DESCRIPTIONS) || '$ref' in response) continue;
        const name = `Error${status}`;
        shared[name] = response;
        operation.responses[status] = { $ref: `#/components/responses/${name}` };
      }
    }
  }
  return {
    ...document,
    components: { ...document.components, responses: { ...document.components?.responses, ...shared } },
  };
}

/** Builds the OpenAPI 3.1 document and serves it at /docs (UI), /docs/json and /docs/yaml. */
export function mountOpenApi(
  app: NestFastifyApplication,
  meta: { title: string; description: string },
  limits: ConfiguredLimits,
): OpenAPIObject {
  const marks = documentErrorResponses(app);
  const documentConfig = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle(meta.title)
    .setDescription(meta.description)
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Platform admin token or a cairn_st_ session token' })
    .addSecurityRequirements('bearer')
    .build();
  // zod emits JSON Schema 2020-12 (`type: [X, "null"]`), which is OpenAPI 3.1's dialect.
  const raw = restoreNullableProperties(SwaggerModule.createDocument(app, documentConfig));
  const document = markOperations(shareErrorResponses(cleanupOpenApiDoc(raw, { version: '3.1' })), marks);
  // The lengths the configuration sets, where the schemas only know their ceiling.
  applyConfiguredLimits(document, limits);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/json', yamlDocumentUrl: 'docs/yaml' });
  return document;
}
