import { randomUUID } from 'node:crypto';
import { JSONSchemaFaker } from 'json-schema-faker';
import { VICTIM_WORDS, type VictimWorld } from './victim-world';

/** A fixed seed: the same bodies every run, so a failure reproduces. */
function seededRandom(seed = 20_261_124): () => number {
  let state = seed;
  return () => {
    state = (state * 16_807) % 2_147_483_647;
    return (state - 1) / 2_147_483_646;
  };
}

JSONSchemaFaker.option({
  requiredOnly: true,
  useDefaultValue: false,
  random: seededRandom(),
  maxItems: 2,
});

/**
 * The smallest body or argument object valid against its JSON Schema that `accepts` takes,
 * so a probe reaches the authorisation it tests instead of stopping at validation: the
 * required fields alone, else with one optional field added (the first that is accepted),
 * else every field. `root` resolves `$ref`s (the OpenAPI document's components).
 */
export function minimalInstance(schema: object, root: object = {}, accepts: (value: unknown) => boolean = () => true) {
  const generate = (): unknown => JSONSchemaFaker.generate({ ...root, ...schema });
  const minimal = generate();
  if (accepts(minimal) || !isObject(minimal)) return minimal;
  JSONSchemaFaker.option({ requiredOnly: false, alwaysFakeOptionals: true });
  let full: unknown;
  try {
    full = generate();
  } finally {
    JSONSchemaFaker.option({ requiredOnly: true, alwaysFakeOptionals: false });
  }
  if (!isObject(full)) return minimal;
  // In the schema's order: the fields a caller would name first (content before reason).
  const properties = Object.keys((schema as { properties?: object }).properties ?? full);
  const candidates = properties
    .filter((key) => key in full && !(key in minimal))
    .map((key) => ({ ...minimal, [key]: full[key] }));
  return [...candidates, full].find(accepts) ?? minimal;
}

/** The required fields alone: what a naming variant adds its one field to. */
export function requiredInstance(schema: object, root: object = {}): unknown {
  return JSONSchemaFaker.generate({ ...root, ...schema });
}

/**
 * Optional fields that name something of the victim's: a cross-project search's project list,
 * a pending fetch's job. Where a schema declares one, a variant of the call names it outright.
 */
export const NAMING_FIELDS = ['projects', 'jobId'] as const;
export type NamingField = (typeof NAMING_FIELDS)[number];

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether a (possibly `$ref`) object schema declares a property. */
export function declares(schema: object, property: string, root: { components?: object } = {}): boolean {
  const ref = (schema as { $ref?: string }).$ref;
  const resolved = ref
    ? ref
        .replace(/^#\//, '')
        .split('/')
        .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], root)
    : schema;
  const properties = (resolved as { properties?: object } | undefined)?.properties;
  return properties !== undefined && Object.hasOwn(properties, property);
}

/**
 * A call naming only its target (`{}`, `{ id }`) can be refused as "nothing to change" or
 * "pass one of these" before any lookup: where a field can be added, the probe adds one. So can
 * a call whose changes name nothing (a card edit's `{ changes: {} }`: the generator leaves out
 * optional properties whatever `minProperties` says): such a body is passed over.
 */
export function changesSomething(value: unknown): boolean {
  if (!isObject(value)) return true;
  const fields = Object.entries(value).filter(([key]) => key !== 'id' && key !== 'project');
  return fields.length > 0 && fields.every(([, field]) => !isObject(field) || Object.keys(field).length > 0);
}

/** Resources a route or tool addresses by id, and which victim object that id names. */
const VICTIM_OBJECT: Record<string, keyof VictimWorld['ids']> = {
  memories: 'memory',
  memory: 'memory',
  secrets: 'secret',
  secret: 'secret',
  documents: 'document',
  tokens: 'token',
  users: 'user',
  requests: 'request',
  proposals: 'proposal',
  shares: 'share',
  'share-rules': 'shareRule',
  reviews: 'review',
  review: 'review',
  // DELETE /v1/session/list/:id: a browser session of the account.
  list: 'browserSession',
  // POST /v1/platform/accounts/:id/…: a platform operator's account.
  accounts: 'platformAccount',
};

/**
 * Objects that belong to the attacked project (a user, a browser session or a queue job belongs
 * to the tenant; a platform account to the installation).
 */
export const PROJECT_BOUND: ReadonlySet<string> = new Set(
  Object.entries(VICTIM_OBJECT)
    .filter(([, kind]) => kind !== 'user' && kind !== 'browserSession' && kind !== 'platformAccount')
    .map(([resource]) => resource),
);

/**
 * Ids the victim tenant has no object for (yet); the probes name them as recorded gaps. An OAuth
 * grant needs Cairn's authorization server on and a person's consent in a browser, which this
 * world does not run (apps/mcp-gateway/test/oauth-refusals.e2e-spec.ts probes grants across tenants).
 */
export const NO_VICTIM_OBJECT = new Set(['jobs', 'oauth-grants']);

/** The real victim id for `resource` (the path segment before `:id`, or a tool's noun). */
export function victimIdFor(resource: string, victim: VictimWorld): string {
  const kind = VICTIM_OBJECT[resource];
  if (kind) return victim.ids[kind];
  if (NO_VICTIM_OBJECT.has(resource)) return resource === 'jobs' ? '1' : randomUUID();
  throw new Error(`no victim object for "${resource}" ids: seed one in victim-world.ts`);
}

/** A path parameter's value: always the victim's. Unknown parameters fail, so no route goes unaimed. */
export function victimParam(name: string, resource: string, victim: VictimWorld): string {
  switch (name) {
    case 'slug':
      return victim.tenant.slug;
    case 'project':
      return victim.project;
    case 'key':
      return victim.ids.workingMemoryKey;
    case 'queue':
      return victim.ids.queue;
    case 'jobId':
      return victim.ids.fetchJob;
    case 'id':
      return victimIdFor(resource, victim);
    case 'version':
      // The victim project's card has a version 1 (victim-world.ts).
      return '1';
    case 'uid':
      // An authorization request belongs to the browser that started it, not to a tenant: none to aim at.
      return randomUUID();
    default:
      throw new Error(`path parameter ":${name}" has no victim value: add it to victimParam`);
  }
}

/**
 * Points a generated body at the victim: fields that name objects get the victim's real ids,
 * a search gets the words the victim's texts hold, an introspection the victim's live token.
 * Returns whether any field now names a victim object (then the call must be refused).
 */
export function aimAtVictim(
  body: unknown,
  resource: string,
  victim: VictimWorld,
  options: { name?: NamingField } = {},
): { body: unknown; namesVictimObject: boolean; namesVictimProject: boolean } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    return { body, namesVictimObject: false, namesVictimProject: false };
  }
  const aimed: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  // An optional field that names the victim's, named outright (set below with the victim's value).
  if (options.name) aimed[options.name] = null;
  let namesVictimObject = false;
  const set = (key: string, value: unknown, isObject = false) => {
    if (!(key in aimed)) return;
    aimed[key] = value;
    namesVictimObject ||= isObject;
  };
  if ('id' in aimed) set('id', victimIdFor(resource, victim), VICTIM_OBJECT[resource] !== undefined);
  set('toId', victim.ids.secondMemory, true);
  // One id for a tool's `supersedes`, a list for the REST API's.
  set('supersedes', Array.isArray(aimed.supersedes) ? [victim.ids.secondMemory] : victim.ids.secondMemory, true);
  set('sourceIds', [victim.ids.secondMemory], true);
  set('key', victim.ids.workingMemoryKey);
  // A version of the victim project's card (project_card's argument): it has a version 1.
  set('version', 1);
  set('jobId', victim.ids.fetchJob, true);
  set('project', victim.project);
  set('projects', [victim.project]);
  set('query', VICTIM_WORDS);
  set('token', victim.projectToken);
  // An address the SSRF guard refuses: a probe that got this far must not fetch anything.
  set('url', 'http://127.0.0.1:9/');
  return { body: aimed, namesVictimObject, namesVictimProject: 'project' in aimed || 'projects' in aimed };
}
