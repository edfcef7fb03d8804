import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Permission, PERMISSIONS, REQUIRED_PERMISSION, type Role, roleGrants } from '@cairn/access';
import { PUBLIC_ROUTE } from '@cairn/observability';
import {
  aimAtVictim,
  changesSomething,
  declares,
  minimalInstance,
  NAMING_FIELDS,
  NO_VICTIM_OBJECT,
  PROJECT_BOUND,
  requiredInstance,
  victimParam,
} from './probe-inputs';
import { type Probe, type ProbeAnswer } from './probe-verdict';
import { VICTIM_WORDS, type VictimWorld } from './victim-world';
import { importLine } from '../memory-fixtures';

export interface RestRoute {
  readonly method: string;
  /** Nest's path, `:param` style. */
  readonly path: string;
  readonly permission: Permission;
}

/** Every non-public handler the running app mounted, with the permission it declares. */
export function restRoutes(app: NestFastifyApplication): RestRoute[] {
  const routes: RestRoute[] = [];
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
        const isPublic = Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller);
        if (isPublic) continue;
        const path = `/${base}/${String(Reflect.getMetadata(PATH_METADATA, handler) ?? '')}`
          .replace(/\/+/g, '/')
          .replace(/(.)\/$/, '$1');
        // A route declaring no permission is denied to all (route-permissions.e2e-spec proves it).
        const permission = Reflect.getMetadata(REQUIRED_PERMISSION, handler) as Permission | undefined;
        if (permission) routes.push({ method: RequestMethod[method], path, permission });
      }
    }
  }
  return routes;
}

interface OpenApiOperation {
  readonly requestBody?: { content: Record<string, { schema: object }> };
  readonly parameters?: { name: string; in: string; required?: boolean; schema: object }[];
}

interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
  readonly components?: object;
}

/** One route's request, aimed at the victim; `gap` says what could not be made realistic. */
interface AimedRequest {
  readonly url: string;
  readonly body: string | undefined;
  readonly contentType: string | undefined;
  readonly namesVictimObject: boolean;
  /** It names the attacked project, or one of its objects (a token scoped to it). */
  readonly reachesVictimProject: boolean;
  readonly gap?: string;
  /** Set on the variant that names the victim's project in an optional `projects` list. */
  readonly variant?: string;
}

/**
 * The route's request aimed at the victim; for a body that can name projects (a cross-project
 * search), a second variant naming the victim's project outright.
 */
function aimedRequests(route: RestRoute, openApi: OpenApiDocument, victim: VictimWorld): AimedRequest[] {
  const segments = route.path.split('/');
  let gap: string | undefined;
  let namesVictimObject = false;
  let reachesVictimProject = false;
  const path = segments
    .map((segment, index) => {
      if (!segment.startsWith(':')) return segment;
      const resource = segments[index - 1] ?? '';
      // `:id`, `:jobId`: a path parameter naming one object.
      if (/^:(id|[a-z]+Id)$/.test(segment)) {
        if (NO_VICTIM_OBJECT.has(resource)) gap = `no victim ${resource} to name (an unknown id is used)`;
        else namesVictimObject = true;
        reachesVictimProject ||= PROJECT_BOUND.has(resource);
      }
      return encodeURIComponent(victimParam(segment.slice(1), resource, victim));
    })
    .join('/');
  const operation = openApi.paths[route.path.replace(/:([A-Za-z]+)/g, '{$1}')]?.[route.method.toLowerCase()];
  const url = `${path}${requiredQuery(operation, openApi)}`;
  const content = operation?.requestBody?.content;
  const bare = { url, namesVictimObject, reachesVictimProject, gap };
  if (!content) return [{ ...bare, body: undefined, contentType: undefined }];
  const [contentType, { schema }] = Object.entries(content)[0];
  if (contentType === 'application/x-ndjson') {
    // The import format has no JSON Schema in the document: a header and one memory line of
    // the export format (`cairn.memories` v1), as an export of the victim project would start.
    const header = { format: 'cairn.memories', version: 1, project: victim.project, exportedAt: new Date() };
    const line = importLine({ content: `probe ${VICTIM_WORDS}` });
    const body = `${JSON.stringify(header)}\n${JSON.stringify(line)}\n`;
    return [{ ...bare, body, contentType }];
  }
  if (contentType !== 'application/json') {
    const unsupported = `${contentType} body is not generated (sent empty)`;
    return [{ ...bare, body: '', contentType, gap: unsupported }];
  }
  const resource = segments.filter((segment) => !segment.startsWith(':')).at(-1) ?? '';
  const accepts = route.method === 'PATCH' ? changesSomething : undefined;
  const root = { components: openApi.components };
  const body = minimalInstance(schema, root, accepts);
  const named = NAMING_FIELDS.filter((field) => declares(schema, field, root) && !(field in (body as object)));
  const variants = [
    { body, name: undefined },
    ...named.map((name) => ({ body: requiredInstance(schema, root), name })),
  ];
  return variants.map(({ body, name }) => {
    const aimed = aimAtVictim(body, resource, victim, { name });
    return {
      url,
      body: JSON.stringify(aimed.body),
      contentType,
      namesVictimObject: namesVictimObject || aimed.namesVictimObject,
      reachesVictimProject: reachesVictimProject || aimed.namesVictimProject,
      gap,
      variant: name ? `naming the victim's ${name}` : undefined,
    };
  });
}

/** The query string of the parameters the operation requires, generated from their schemas. */
function requiredQuery(operation: OpenApiOperation | undefined, openApi: OpenApiDocument): string {
  const query = new URLSearchParams();
  for (const parameter of operation?.parameters ?? []) {
    if (parameter.in !== 'query' || !parameter.required) continue;
    query.set(parameter.name, String(minimalInstance(parameter.schema, { components: openApi.components })));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

const BAD_TOKENS = ['revoked', 'expired', 'malformed', 'disabled-user'] as const;
const LOWER_ROLES: readonly Role[] = ['admin', 'member', 'orchestrator', 'agent', 'reader'];

/**
 * Every route crossed with every kind of wrong caller. What each must answer follows from the
 * route's declared permission alone: its scope says whether the path names the victim (then
 * refuse), and the role table says which of the victim's own roles lack it.
 */
export function restProbes(
  app: NestFastifyApplication,
  openApi: OpenApiDocument,
  victim: VictimWorld,
): { probes: Probe[]; routes: RestRoute[]; gaps: string[] } {
  const routes = restRoutes(app);
  const probes: Probe[] = [];
  const gaps: string[] = [];
  for (const [route, request] of routes.flatMap((route) =>
    aimedRequests(route, openApi, victim).map((request) => [route, request] as const),
  )) {
    if (request.gap) gaps.push(`${route.method} ${route.path}: ${request.gap}`);
    const scope = PERMISSIONS[route.permission].scope;
    const target = `REST ${route.method} ${route.path}${request.variant ? ` (${request.variant})` : ''}`;
    const probe = (caller: string, mustRefuse: boolean, refusals: number[], secrets: readonly string[]): Probe => ({
      target,
      caller,
      mustRefuse,
      refusals,
      secrets,
      readOnly: route.method === 'GET',
      sent: `${request.url} ${request.body ?? ''}`,
      run: (token) => inject(app, route.method, request, token),
    });
    for (const caller of BAD_TOKENS) probes.push(probe(caller, true, [401], victim.tenantSecrets));
    // Session routes act on the caller's own tenant: answering is right, showing the victim is not.
    probes.push(probe('other-tenant', scope !== 'session', [403, 404], victim.tenantSecrets));
    if (scope === 'project') {
      probes.push(probe('other-tenant-same-project-slug', request.namesVictimObject, [403, 404], victim.tenantSecrets));
    }
    // Tenant administration is the tenant admin's whatever its project scope, but not over a
    // project outside it (a token for it, revoking one of its tokens); and that project's data
    // may not show (in audit entries, token lists, jobs...).
    if (scope === 'tenant') {
      probes.push(probe('other-project', request.reachesVictimProject, [403], victim.projectSecrets));
    }
    if (scope === 'project' || scope === 'session') {
      probes.push(probe('other-project', scope === 'project', [403], victim.projectSecrets));
      // Allowed in the project, so any answer may come back; what is private to the victim may not.
      probes.push(probe('other-agent', false, [403, 404], victim.privateSecrets));
    }
    for (const role of LOWER_ROLES) {
      if (!roleGrants(role, route.permission)) probes.push(probe(`lower:${role}`, true, [403], victim.tenantSecrets));
    }
  }
  return { probes, routes, gaps };
}

async function inject(
  app: NestFastifyApplication,
  method: string,
  request: AimedRequest,
  token: string,
): Promise<ProbeAnswer> {
  const response = await app.inject({
    method: method as 'GET',
    url: request.url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(request.contentType ? { 'content-type': request.contentType } : {}),
    },
    payload: request.body,
  });
  return {
    succeeded: response.statusCode >= 200 && response.statusCode < 300,
    outcome: response.statusCode,
    // Headers too: a leak in a Location or a custom header is still a leak.
    text: `${response.body}\n${JSON.stringify(response.headers)}`,
  };
}
