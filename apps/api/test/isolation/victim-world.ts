import { randomBytes } from 'node:crypto';
import { TOOLSETS } from '@cairn/access';
import { type GatewayWorld } from '@cairn/gateway-harness';
import {
  createProject,
  createTenant,
  createUser,
  issueToken,
  PASSWORD,
  passwordLink,
  signIn,
  TestClient,
  uniqueSlug,
} from '@cairn/testing';
import { DataSource } from 'typeorm';

/** Synthetic but format-valid AWS access key id: stored redacted, so its placeholder is a real secret id. */
const AWS_KEY = `AKIA${[...randomBytes(16)].map((byte) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[byte % 32]).join('')}`;
const SECRET_PLACEHOLDER = /\[SECRET:[a-z0-9-]+:([A-Za-z0-9_-]+)\]/;

/** The words the victim's texts share, so a search by another caller would match them if it leaked. */
export const VICTIM_WORDS = 'zebra quartz falcon ledger';

/** What a probe may aim at: the real ids of the victim's objects, and the bait it must never see. */
export interface VictimWorld {
  readonly tenant: { id: string; slug: string };
  /** The project the probes attack, and a second one (for tokens scoped to "another project"). */
  readonly project: string;
  readonly otherProject: string;
  /** Path and argument values, by the resource they name. */
  readonly ids: {
    readonly memory: string;
    readonly secondMemory: string;
    readonly document: string;
    readonly secret: string;
    readonly token: string;
    readonly user: string;
    readonly workingMemoryKey: string;
    readonly queue: string;
    readonly request: string;
    readonly proposal: string;
    readonly review: string;
    readonly fetchJob: string;
    readonly share: string;
    readonly shareRule: string;
    /** One of the victim user's browser sessions (the account routes end them by id). */
    readonly browserSession: string;
    /** A platform operator's account (the platform account routes disable, enable and reset it by id). */
    readonly platformAccount: string;
  };
  /** The victim's own token: it seeds, and checks afterwards that nothing changed. */
  readonly victimToken: string;
  /** A live token of the attacked project: what introspection probes ask about. */
  readonly projectToken: string;
  /** Strings that reveal the victim tenant anywhere outside it. */
  readonly tenantSecrets: readonly string[];
  /** Strings that reveal the attacked project to a token of the same tenant scoped elsewhere. */
  readonly projectSecrets: readonly string[];
  /**
   * What only the victim agent (or an admin) may see, even inside its project: its private
   * working memory and the originals of its secrets.
   */
  readonly privateSecrets: readonly string[];
  /** The bearer tokens the probes use, by kind (`lower:<role>` for the victim tenant's lower roles). */
  readonly tokens: Readonly<Record<string, string>>;
}

function expectCreated(response: { status: number; body: unknown }, what: string): any {
  if (response.status < 200 || response.status > 299) {
    throw new Error(`seeding ${what}: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body;
}

/**
 * The victim tenant, filled through the public API with one object of every kind the routes
 * and tools address, each carrying a unique marker; and the callers that must not reach them.
 */
export async function seedVictimWorld(world: GatewayWorld): Promise<VictimWorld> {
  const { admin } = world;
  const tenantMarker = `VICTIM-TENANT-${randomBytes(6).toString('hex')}`;
  const projectMarker = `VICTIM-PROJECT-${randomBytes(6).toString('hex')}`;
  const privateMarker = `VICTIM-PRIVATE-${randomBytes(6).toString('hex')}`;
  const tenant = await createTenant(admin);
  const project = (await createProject(admin, tenant.slug)).slug;
  const otherProject = (await createProject(admin, tenant.slug)).slug;
  const user = await createUser(admin, tenant.slug, 'admin', `${tenantMarker.toLowerCase()}@example.com`);
  const toolsets = [...TOOLSETS];
  const owner = await issueToken(admin, tenant.slug, {
    role: 'admin',
    userId: user.id,
    agentId: 'victim-agent',
    toolsets,
  });
  const victim: TestClient = world.admin.as(owner.token);
  // The token the probes name (to revoke it, introspect it): one of the attacked project's.
  const projectToken = await issueToken(admin, tenant.slug, {
    role: 'agent',
    projects: [project],
    agentId: 'victim-ci',
  });
  const base = `/v1/projects/${project}`;
  // The victim user signed in from a browser: its session is what the account routes name by id.
  const link = await passwordLink(admin, tenant.slug, user.id);
  const anonymous = new TestClient(world.api);
  expectCreated(await anonymous.post('/v1/session/password', { token: link, password: PASSWORD }), 'password');
  const browser = await signIn(anonymous, { tenant: tenant.slug, email: user.email });
  const browserSession = String(expectCreated(await browser.get('/v1/session/list'), 'browser sessions').items[0].id);
  // An operator: no tenant caller may list, disable, enable or reset it.
  const operator = expectCreated(
    await admin.post('/v1/platform/accounts', {
      email: `operator-${tenantMarker.toLowerCase()}@example.com`,
      name: `Operator ${tenantMarker}`,
      password: PASSWORD,
    }),
    'platform account',
  ).account as { id: string; email: string };

  const memory = expectCreated(
    await victim.post(`${base}/memories`, {
      content: `${projectMarker} ${VICTIM_WORDS}: the deploy key is ${AWS_KEY}`,
      keywords: ['zebra'],
    }),
    'memory',
  );
  const secret = SECRET_PLACEHOLDER.exec(String(memory.memory.content))?.[1];
  if (!secret) throw new Error(`seeding: the memory's secret was not redacted: ${memory.memory.content}`);
  const second = expectCreated(
    await victim.post(`${base}/memories`, { content: `${projectMarker} second ${VICTIM_WORDS}` }),
    'second memory',
  );
  const document = expectCreated(
    await victim.post(`${base}/kb/documents`, {
      source: 'victim/notes.md',
      text: `${projectMarker} ${VICTIM_WORDS} in the knowledge base.`,
    }),
    'kb document',
  );
  // The project's card (version 1): a read of the card or of a version of it shows the marker if it leaks.
  expectCreated(
    await victim.patch(`${base}/card`, { changes: { notes: `${projectMarker} ${VICTIM_WORDS} card` } }),
    'project card',
  );
  const workingMemoryKey = 'victim-plan';
  expectCreated(
    await victim.request('PUT', `${base}/working-memory/${workingMemoryKey}`, {
      value: `${privateMarker} ${VICTIM_WORDS} plan`,
    }),
    'working memory',
  );
  expectCreated(
    await victim.post(`${base}/events`, { kind: 'decision', summary: `${projectMarker} ${VICTIM_WORDS}` }),
    'event',
  );
  // A coordination message (assigned to the victim agent, so briefings carry it too).
  expectCreated(
    await victim.post(`${base}/broadcasts`, {
      type: 'ASSIGN',
      summary: `${projectMarker} ${VICTIM_WORDS} task`,
      assignee: 'victim-agent',
    }),
    'broadcast',
  );
  expectCreated(
    await victim.post(`${base}/session/summary`, { text: `${projectMarker} ${VICTIM_WORDS} summary` }),
    'session summary',
  );
  // Waits for a worker that never comes here: a real pending request of the victim project.
  const request = expectCreated(
    await victim.post(`${base}/session/summarize`, { transcript: `${projectMarker} ${VICTIM_WORDS} transcript` }),
    'summarize request',
  );
  // Proposals come only from the extraction worker and a model, neither of which runs here:
  // written as that worker writes them, for the victim's pending request.
  const [proposal] = await world.api.get(DataSource).query<{ id: string }[]>(
    `INSERT INTO "${tenant.schema}".memory_proposals (id, project_id, request_id, content, category, importance,
       confidence, status)
     SELECT gen_random_uuid(), projects.id, $2, $3, 'fact', 3, 0.9, 'pending'
     FROM "${tenant.schema}".projects WHERE slug = $1
     RETURNING id`,
    [project, request.requestId, `${projectMarker} ${VICTIM_WORDS} proposed`],
  );
  // A pending promotion in the review queue, written as memory_promote writes it (through SQL
  // like the proposal: the promote route's audit entry would name the memory's id in the tenant
  // log, which every tenant admin reads).
  const [review] = await world.api.get(DataSource).query<{ id: string }[]>(
    `INSERT INTO "${tenant.schema}".memory_reviews (id, project_id, kind, memory_id, from_scope, to_scope, note,
       proposed_by_token_id)
     SELECT gen_random_uuid(), projects.id, 'promotion', $2, 'project', 'team', $3, $4
     FROM "${tenant.schema}".projects WHERE slug = $1
     RETURNING id`,
    [project, second.memory.id, `${projectMarker} ${VICTIM_WORDS} promotion note`, owner.id],
  );
  // A fetch the (absent) worker never runs: a real pending job of the victim project.
  const fetch = expectCreated(await victim.post(`${base}/kb/fetch`, { url: 'http://127.0.0.1:9/' }), 'kb fetch');
  const queues = expectCreated(await admin.get('/v1/admin/queues'), 'queue list');
  const queue = String(queues.items?.[0]?.name ?? queues[0]?.name ?? 'knowledge');

  // A share and a tag rule of the victim's, with an agent none of the probes is.
  const share = expectCreated(
    await victim.post(`${base}/memories/${memory.memory.id}/shares`, { agentId: 'victim-friend', permission: 'write' }),
    'share',
  );
  const shareRule = expectCreated(
    await victim.post(`${base}/share-rules`, { tag: 'victim-tag', agentId: 'victim-friend' }),
    'share rule',
  );

  const tokens = await probeTokens(world, tenant.slug, project, otherProject, toolsets);
  const documentId = String(document.document?.id ?? document.id);
  const objectIds = [
    memory.memory.id,
    second.memory.id,
    documentId,
    secret,
    String(request.requestId),
    proposal.id,
    String(review.id),
    String(fetch.jobId),
    share.id,
    shareRule.id,
  ];
  return {
    tenant,
    project,
    otherProject,
    ids: {
      memory: memory.memory.id,
      secondMemory: second.memory.id,
      document: documentId,
      secret,
      token: projectToken.id,
      user: user.id,
      workingMemoryKey,
      queue,
      request: String(request.requestId),
      proposal: proposal.id,
      review: String(review.id),
      fetchJob: String(fetch.jobId),
      share: share.id,
      shareRule: shareRule.id,
      browserSession,
      platformAccount: operator.id,
    },
    victimToken: owner.token,
    projectToken: projectToken.token,
    tenantSecrets: [
      tenant.id,
      user.id,
      owner.id,
      owner.token,
      projectToken.id,
      projectToken.token,
      tenantMarker,
      projectMarker,
      privateMarker,
      AWS_KEY,
      operator.id,
      ...objectIds,
    ],
    projectSecrets: [projectMarker, privateMarker, AWS_KEY, projectToken.token, ...objectIds],
    privateSecrets: [privateMarker, AWS_KEY, owner.token],
    tokens,
  };
}

/**
 * Every caller the probes impersonate. The attackers hold the widest token their tenant can
 * issue (admin, every project, every toolset), so a refusal is the isolation's doing and not
 * a narrower scope's.
 */
async function probeTokens(
  world: GatewayWorld,
  victimSlug: string,
  project: string,
  otherProject: string,
  toolsets: string[],
): Promise<Record<string, string>> {
  const { admin } = world;
  const issue = async (tenant: string, body: Parameters<typeof issueToken>[2]) =>
    (await issueToken(admin, tenant, { toolsets, ...body })).token;

  const attacker = await createTenant(admin);
  // A second attacker holding a project of the very same slug: its calls pass the guard, so
  // only the tenant's own schema stands between it and the victim's ids.
  const twin = await createTenant(admin);
  await createProject(admin, twin.slug, project);

  const tokens: Record<string, string> = {
    'other-tenant': await issue(attacker.slug, { role: 'admin', projects: '*' }),
    'other-tenant-same-project-slug': await issue(twin.slug, { role: 'admin', projects: '*' }),
    'other-project': await issue(victimSlug, { role: 'admin', projects: [otherProject] }),
    // A colleague: same tenant, same projects, the same role as most agents, another agent.
    'other-agent': await issue(victimSlug, { role: 'agent', projects: '*', agentId: 'other-agent' }),
    revoked: await revokedToken(world, victimSlug, toolsets),
    expired: await expiredToken(world, victimSlug, toolsets),
    'disabled-user': await disabledUsersToken(world, victimSlug, toolsets),
    // Well-formed prefix, wrong length and alphabet: the verifier must refuse it unread.
    malformed: `cairn_st_${'!'.repeat(12)}${uniqueSlug('x')}`,
  };
  for (const role of ['member', 'orchestrator', 'agent', 'reader']) {
    tokens[`lower:${role}`] = await issue(victimSlug, { role, projects: '*' });
  }
  // Admin is the top tenant role: "lower" only than the platform admin, for platform routes.
  tokens['lower:admin'] = await issue(victimSlug, { role: 'admin', projects: '*' });
  return tokens;
}

async function revokedToken(world: GatewayWorld, tenant: string, toolsets: string[]): Promise<string> {
  const issued = await issueToken(world.admin, tenant, { role: 'admin', projects: '*', toolsets });
  expectCreated(await world.admin.delete(`/v1/tenants/${tenant}/tokens/${issued.id}`), 'token revocation');
  return issued.token;
}

/** Tokens live at least a minute; the database's clock is moved past this one's end instead of waiting. */
async function expiredToken(world: GatewayWorld, tenant: string, toolsets: string[]): Promise<string> {
  const issued = await issueToken(world.admin, tenant, { role: 'admin', projects: '*', toolsets, ttlSeconds: 60 });
  await world.api
    .get(DataSource)
    .query(`UPDATE cairn.session_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1`, [issued.id]);
  return issued.token;
}

/** A live, unexpired token whose user an admin has since disabled: it must stop working at once. */
async function disabledUsersToken(world: GatewayWorld, tenant: string, toolsets: string[]): Promise<string> {
  const user = await createUser(world.admin, tenant, 'admin');
  const issued = await issueToken(world.admin, tenant, { role: 'admin', projects: '*', userId: user.id, toolsets });
  expectCreated(await world.admin.patch(`/v1/tenants/${tenant}/users/${user.id}`, { disabled: true }), 'disabling');
  return issued.token;
}

/**
 * Fields that reading legitimately moves (a recalled memory counts the access and gains a
 * little confidence); everything else must hold.
 */
const READ_BOOKKEEPING = /^(accessCount|lastAccessedAt|confidence)$/;

/**
 * What the victim's own token sees of the objects other callers could try to change: its
 * memories (content, supersession, version), their relations, and its private working memory.
 * Taken before and after the probes: no wrong caller may have changed any of it.
 */
export async function victimSnapshot(world: GatewayWorld, victim: VictimWorld): Promise<string> {
  const owner = world.admin.as(victim.victimToken);
  const base = `/v1/projects/${victim.project}`;
  const parts: unknown[] = [];
  for (const id of [victim.ids.memory, victim.ids.secondMemory]) {
    parts.push(
      (await owner.get(`${base}/memories/${id}`)).body,
      (await owner.get(`${base}/memories/${id}/related`)).body,
    );
  }
  parts.push((await owner.get(`${base}/working-memory`)).body);
  // Its shares and rules (a colleague may make its own, never change these).
  parts.push((await owner.get(`${base}/shares?limit=200`)).body);
  // The operator's account: still enabled, and no operator account changed or given a password link (the audit says).
  const operators = (await world.admin.get('/v1/platform/accounts?limit=500')).body.items as { id: string }[];
  parts.push(operators.find((account) => account.id === victim.ids.platformAccount));
  const audit = await world.admin.get('/v1/audit?action=platform.account.&outcome=success&limit=500');
  parts.push(audit.body.items.map((entry: { action: string; target: string }) => `${entry.action} ${entry.target}`));
  return JSON.stringify(parts, (key, value: unknown) => (READ_BOOKKEEPING.test(key) ? undefined : value), 2);
}
