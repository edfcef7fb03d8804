/**
 * The two tenants of the scope benchmark, made through the admin API and filled with the same
 * memories (same ids, texts and vectors): `scoped` as the plan places them (50 projects, 20
 * authors, the scope mix, shares and tag rules), `unscoped` with every memory of scope
 * `project` and no shares, the memories the measured agent may see in the scoped tenant all in
 * its project there, the rest in other projects. Rows go in as seed.ts puts them: a bulk
 * INSERT … jsonb_to_recordset in tenant transactions, then seed.ts's embedAndSettle.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type SessionPrincipal } from '@cairn/access';
import { TokenVerifier } from '@cairn/auth';
import { type MemoryScopeLevel } from '@cairn/memory';
import { quotedSchema, type TenantRef } from '@cairn/tenancy';
import { type CorpusMemory } from './corpus';
import { type SearchApp } from './fixture';
import { type Author, AUTHORS, PROJECTS, type ScopePlan, SERVICE_AGENTS, VIEWER, VIEWER_PROJECT } from './scopes-plan';
import { bulkMemoryRow, embedAndSettle } from './seed';

const INSERT_BATCH = 1_000;

export interface TeamTenant {
  readonly tenant: TenantRef;
  readonly projects: readonly { readonly id: string; readonly slug: string }[];
}

/** A tenant with {@link PROJECTS} projects `p00`…`p49`. */
export async function createTeamTenant(bench: SearchApp, label: string): Promise<TeamTenant> {
  const { client, adminToken } = bench;
  const slug = `bench-scopes-${label}-${randomBytes(3).toString('hex')}`;
  const tenant = await client.expectJson<TenantRef>(201, 'POST', '/v1/tenants', adminToken, {
    slug,
    name: `Scope benchmark ${label}`,
  });
  const projects: { id: string; slug: string }[] = [];
  for (let i = 0; i < PROJECTS; i++) {
    const project = await client.expectJson<{ id: string; slug: string }>(
      201,
      'POST',
      `/v1/tenants/${slug}/projects`,
      adminToken,
      { slug: `p${String(i).padStart(2, '0')}`, name: `Project ${i}` },
    );
    projects.push(project);
  }
  return { tenant: { id: tenant.id, slug: tenant.slug, schema: tenant.schema }, projects };
}

/** The measured agent: a service token (no user) scoped to its one project, as a session principal. */
export async function issueViewerToken(bench: SearchApp, team: TeamTenant): Promise<SessionPrincipal> {
  const project = team.projects[VIEWER_PROJECT];
  if (!project) throw new Error('the viewer project is missing');
  const issued = await bench.client.expectJson<{ token: string }>(
    201,
    'POST',
    `/v1/tenants/${team.tenant.slug}/tokens`,
    bench.adminToken,
    { role: 'agent', agentId: 'bench:agent-0', projects: [project.slug] },
  );
  const principal = await bench.app.get(TokenVerifier, { strict: false }).authenticate(`Bearer ${issued.token}`);
  if (principal.kind !== 'session') throw new Error('the viewer token did not authenticate as a session');
  return principal;
}

/**
 * The twenty authors: the measured agent (its real token's ids), 13 more service agents, and 6
 * people (a user id and a token each). Memories record these ids; no other token is needed.
 */
export function teamAuthors(viewer: SessionPrincipal): Author[] {
  return Array.from({ length: AUTHORS }, (_, i): Author => {
    if (i === VIEWER) return { userId: viewer.userId, agentId: viewer.agentId, tokenId: viewer.tokenId };
    if (i < SERVICE_AGENTS) return { userId: null, agentId: `bench:agent-${i}`, tokenId: randomUUID() };
    return { userId: randomUUID(), agentId: null, tokenId: randomUUID() };
  });
}

export interface Placement {
  readonly project: number;
  readonly scope: MemoryScopeLevel;
}

/**
 * Where memory `index` goes in the unscoped tenant: scope `project` always; in the viewer's
 * project when the viewer may see it in the scoped tenant, otherwise in its own project (or,
 * for a hidden memory of the viewer's project, the next one along), so both recalls rank the
 * very same candidate rows.
 */
export function unscopedPlacement(index: number, project: number, visible: boolean): Placement {
  if (visible) return { project: VIEWER_PROJECT, scope: 'project' };
  if (project !== VIEWER_PROJECT) return { project, scope: 'project' };
  return { project: 1 + (index % (PROJECTS - 1)), scope: 'project' };
}

const INSERT_SQL = `
  INSERT INTO memories (id, project_id, scope, content, content_hash, category, tags, keywords, importance,
    confidence, author_user_id, author_agent_id, author_token_id, created_at, updated_at)
  SELECT u.id, u.project_id, u.scope, u.content, u.content_hash, u.category, u.tags, u.keywords, u.importance,
    u.confidence, u.author_user_id, u.author_agent_id, u.author_token_id, u.created_at, u.created_at
  FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, project_id uuid, scope text, content text, content_hash text,
    category text, tags text[], keywords text[], importance smallint, confidence real, author_user_id uuid,
    author_agent_id text, author_token_id uuid, created_at timestamptz)`;

export interface TeamRows {
  readonly corpus: readonly CorpusMemory[];
  readonly ids: readonly string[];
  readonly authorOf: (index: number) => Author;
  readonly placement: (index: number) => Placement;
  readonly runStart: Date;
}

/** Inserts every memory where `placement` puts it, then embeds, folds and analyzes. */
export async function seedTeamMemories(
  bench: SearchApp,
  team: TeamTenant,
  rows: TeamRows,
  log: (line: string) => void,
): Promise<{ insertSeconds: number; embedSeconds: number; vacuumAnalyzeSeconds: number; tableBytes: number }> {
  const begin = performance.now();
  for (let start = 0; start < rows.corpus.length; start += INSERT_BATCH) {
    const batch = rows.corpus.slice(start, start + INSERT_BATCH).map((memory, offset) => {
      const index = start + offset;
      const author = rows.authorOf(index);
      const place = rows.placement(index);
      return {
        ...bulkMemoryRow(rows.ids[index] ?? '', memory, rows.runStart),
        project_id: team.projects[place.project]?.id,
        scope: place.scope,
        author_user_id: author.userId,
        author_agent_id: author.agentId,
        author_token_id: author.tokenId,
      };
    });
    await bench.entry.run(team.tenant, () => bench.tx.run(() => bench.db.query(INSERT_SQL, [JSON.stringify(batch)])));
  }
  const insertSeconds = (performance.now() - begin) / 1000;
  log(`  inserted ${rows.corpus.length} memories in ${insertSeconds.toFixed(1)} s`);
  const settled = await embedAndSettle(bench, team.tenant, rows.ids, log);
  return { insertSeconds, ...settled };
}

/** The plan's shares (read) and tag rules (read), granted by their owners. */
export async function seedSharing(
  bench: SearchApp,
  team: TeamTenant,
  plan: ScopePlan,
  ids: readonly string[],
  authors: readonly Author[],
): Promise<void> {
  const grantee = (i: number) => {
    const a = authors[i];
    if (!a) throw new Error(`no author ${i}`);
    // A person is named by their user, a service agent by its agent id.
    return a.userId !== null
      ? { grantee_user_id: a.userId, grantee_agent_id: null }
      : { grantee_user_id: null, grantee_agent_id: a.agentId };
  };
  const shares = plan.shares.map((share) => {
    const owner = authors[plan.memories[share.memory]?.author ?? -1];
    return {
      id: randomUUID(),
      memory_id: ids[share.memory],
      ...grantee(share.grantee),
      granted_by_user_id: owner?.userId ?? null,
      granted_by_agent_id: owner?.agentId ?? null,
      granted_by_token_id: owner?.tokenId ?? null,
    };
  });
  const rules = plan.rules.map((rule) => ({
    id: randomUUID(),
    project_id: rule.project === null ? null : (team.projects[rule.project]?.id ?? null),
    tag: rule.tag,
    owner_user_id: authors[rule.owner]?.userId ?? null,
    owner_agent_id: authors[rule.owner]?.agentId ?? null,
    owner_token_id: authors[rule.owner]?.tokenId ?? null,
    ...grantee(rule.grantee),
  }));
  await bench.entry.run(team.tenant, () =>
    bench.tx.run(async () => {
      await bench.db.query(
        `INSERT INTO memory_shares (id, memory_id, grantee_user_id, grantee_agent_id, permission,
           granted_by_user_id, granted_by_agent_id, granted_by_token_id)
         SELECT u.id, u.memory_id, u.grantee_user_id, u.grantee_agent_id, 'read', u.granted_by_user_id,
           u.granted_by_agent_id, u.granted_by_token_id
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, memory_id uuid, grantee_user_id uuid, grantee_agent_id text,
           granted_by_user_id uuid, granted_by_agent_id text, granted_by_token_id uuid)`,
        [JSON.stringify(shares)],
      );
      await bench.db.query(
        `INSERT INTO memory_share_rules (id, project_id, tag, owner_user_id, owner_agent_id, owner_token_id,
           grantee_user_id, grantee_agent_id, permission)
         SELECT u.id, u.project_id, u.tag, u.owner_user_id, u.owner_agent_id, u.owner_token_id, u.grantee_user_id,
           u.grantee_agent_id, 'read'
         FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, project_id uuid, tag text, owner_user_id uuid,
           owner_agent_id text, owner_token_id uuid, grantee_user_id uuid, grantee_agent_id text)`,
        [JSON.stringify(rules)],
      );
    }),
  );
  const schema = quotedSchema(team.tenant.schema);
  await bench.dataSource.query(`ANALYZE ${schema}.memory_shares, ${schema}.memory_share_rules`);
}
