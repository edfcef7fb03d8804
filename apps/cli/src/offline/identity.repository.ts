import { createHash } from 'node:crypto';
import { type DatabaseSync } from './sqlite';
import { inTransaction } from './store-database';

/** What the server said the token is (`GET /v1/whoami`), the part the cache keys and answers by. */
export interface WhoamiView {
  readonly kind: 'platform' | 'session';
  readonly tenant?: { readonly id: string; readonly slug: string };
  readonly tokenId?: string;
  readonly role?: string;
  readonly userId?: string | null;
  readonly agentId?: string | null;
  readonly projects?: '*' | string[];
  readonly defaultProject?: string | null;
}

/**
 * One token of one tenant on one server: everything cached or queued belongs to exactly one.
 * Keyed by the token, not the person: two tokens of one user may differ in role and project
 * scope, so one must never read what was cached for the other.
 */
export interface StoreIdentity {
  readonly id: number;
  readonly server: string;
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly tokenId: string;
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly role: string;
  readonly defaultProject: string | null;
  readonly projects: '*' | readonly string[];
  /** When the server last confirmed it (ms since the epoch). */
  readonly checkedAt: number;
}

interface IdentityRow {
  id: number;
  server: string;
  tenant_id: string;
  tenant_slug: string;
  token_id: string;
  user_id: string | null;
  agent_id: string | null;
  role: string;
  default_project: string | null;
  projects: string;
  checked_at: number;
}

/** The server as the cache names it: the REST base without a trailing slash. */
export function serverKey(server: URL): string {
  return server.href.replace(/\/+$/, '');
}

/** A one-way digest of (server, token) for finding the identity offline; the token itself is never stored. */
export function credentialDigest(server: URL, token: string): string {
  return createHash('sha256')
    .update(`cairn-offline-cache\0${serverKey(server)}\0${token}`)
    .digest('hex');
}

export class IdentityRepository {
  constructor(private readonly db: DatabaseSync) {}

  /** The identity this credential was last seen as, if any. */
  findByCredential(digest: string): StoreIdentity | undefined {
    const row = this.db
      .prepare(`SELECT i.* FROM credentials c JOIN identities i ON i.id = c.identity_id WHERE c.digest = ?`)
      .get(digest) as IdentityRow | undefined;
    return row && toIdentity(row);
  }

  /** Records what the server said this credential is (a session token of a tenant); returns the identity. */
  remember(server: URL, digest: string, whoami: WhoamiView, now = Date.now()): StoreIdentity {
    if (whoami.kind !== 'session' || !whoami.tenant || !whoami.tokenId || !whoami.role) {
      throw new Error('the offline cache needs a session token of a tenant (not the platform admin token)');
    }
    const { tenant, tokenId, role } = whoami;
    return inTransaction(this.db, () => {
      const row = this.db
        .prepare(
          `INSERT INTO identities
             (server, tenant_id, tenant_slug, token_id, user_id, agent_id, role, default_project, projects, checked_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (server, tenant_id, token_id) DO UPDATE SET
             tenant_slug = excluded.tenant_slug, user_id = excluded.user_id, agent_id = excluded.agent_id,
             role = excluded.role, default_project = excluded.default_project, projects = excluded.projects,
             checked_at = excluded.checked_at
           RETURNING *`,
        )
        .get(
          serverKey(server),
          tenant.id,
          tenant.slug,
          tokenId,
          whoami.userId ?? null,
          whoami.agentId ?? null,
          role,
          whoami.defaultProject ?? null,
          JSON.stringify(whoami.projects ?? []),
          now,
        ) as unknown as IdentityRow;
      this.db
        .prepare(
          `INSERT INTO credentials (digest, identity_id, checked_at) VALUES (?, ?, ?)
           ON CONFLICT (digest) DO UPDATE SET identity_id = excluded.identity_id, checked_at = excluded.checked_at`,
        )
        .run(digest, row.id, now);
      return toIdentity(row);
    });
  }

  /** Pending or held writes of the other identities on this file (so a token change strands nothing unseen). */
  otherQueues(identityId: number): { identity: StoreIdentity; writes: number }[] {
    const rows = this.db
      .prepare(
        `SELECT i.*, count(q.seq) AS writes FROM identities i JOIN write_queue q ON q.identity_id = i.id
          WHERE i.id <> ? GROUP BY i.id ORDER BY i.id`,
      )
      .all(identityId) as unknown as (IdentityRow & { writes: number })[];
    return rows.map((row) => ({ identity: toIdentity(row), writes: Number(row.writes) }));
  }
}

function toIdentity(row: IdentityRow): StoreIdentity {
  const projects = JSON.parse(row.projects) as '*' | string[];
  return {
    id: Number(row.id),
    server: row.server,
    tenantId: row.tenant_id,
    tenantSlug: row.tenant_slug,
    tokenId: row.token_id,
    userId: row.user_id,
    agentId: row.agent_id,
    role: row.role,
    defaultProject: row.default_project,
    projects,
    checkedAt: Number(row.checked_at),
  };
}
