import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { type Role } from '@cairn/access';
import { PreparedStatements, SNAPSHOT_EXAMPLE as EX, type SqlRunner, SqlSnapshot } from '@cairn/db';
import { type DataSource, type Repository } from 'typeorm';
import { SessionTokenEntity } from './session-token.entity';
import { TOKEN_LOOKUP, TOKEN_LOOKUP_BY_ID } from './tokens.sql';

/** Everything verification needs: the token, its user (TokensRepository.lookup) and its tenant (TokenLookups). */
export interface TokenLookup {
  readonly id: string;
  readonly tenantId: string;
  readonly tenantSlug: string;
  readonly tenantName: string;
  readonly tenantSchema: string;
  readonly tenantDeleted: boolean;
  readonly tenantSuspended: boolean;
  readonly userId: string | null;
  readonly userRole: Role | null;
  readonly userDisabled: boolean;
  readonly agentId: string | null;
  readonly role: Role;
  readonly projects: string[];
  readonly toolsets: string[] | null;
  readonly defaultProject: string | null;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly revokedAt: Date | null;
}

/** A token and its user as the control schema's token table has them; the tenant is looked up apart. */
export type StoredToken = Omit<
  TokenLookup,
  'tenantSlug' | 'tenantName' | 'tenantSchema' | 'tenantDeleted' | 'tenantSuspended'
>;

interface LookupRow {
  id: string;
  tenant_id: string;
  user_id: string | null;
  user_role: Role | null;
  user_disabled: boolean;
  agent_id: string | null;
  role: Role;
  projects: string[];
  toolsets: string[] | null;
  default_project: string | null;
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

@Injectable()
export class TokensRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(SessionTokenEntity) private readonly tokens: Repository<SessionTokenEntity>,
    private readonly prepared: PreparedStatements,
  ) {}

  @SqlSnapshot({
    params: [
      {
        id: EX.newTokenId,
        tenantId: EX.tenantId,
        userId: EX.userId,
        agentId: EX.agentId,
        role: 'agent',
        projects: [EX.projectSlug],
        toolsets: null,
        defaultProject: EX.projectSlug,
        label: null,
        tokenHash: Buffer.alloc(32, 7),
        hint: 'cairn_st_abc…',
        createdBy: 'admin',
        expiresAt: EX.future,
      },
    ],
  })
  async insert(token: Omit<SessionTokenEntity, 'createdAt' | 'revokedAt' | 'lastUsedAt'>): Promise<SessionTokenEntity> {
    await this.tokens.insert({ ...token, revokedAt: null, lastUsedAt: null });
    return this.tokens.findOneByOrFail({ id: token.id });
  }

  /** The token with this hash and its user, in one indexed round trip; TokenLookups adds the tenant. */
  @SqlSnapshot({ params: [Buffer.alloc(32, 7)] })
  async lookup(hash: Buffer): Promise<StoredToken | undefined> {
    const rows = await this.prepared.query<LookupRow>(TOKEN_LOOKUP.name, TOKEN_LOOKUP.text, [hash]);
    return rows[0] && toStoredToken(rows[0]);
  }

  /** The token with this id and its user: how a browser session reaches the token behind it. */
  @SqlSnapshot({ params: [EX.tokenId] })
  async lookupById(id: string): Promise<StoredToken | undefined> {
    const rows = await this.prepared.query<LookupRow>(TOKEN_LOOKUP_BY_ID.name, TOKEN_LOOKUP_BY_ID.text, [id]);
    return rows[0] && toStoredToken(rows[0]);
  }

  /** Records use; the database keeps it to one write per token per minute even across replicas. */
  @SqlSnapshot({ params: [EX.tokenId] })
  async touch(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE cairn.session_tokens SET last_used_at = now()
       WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')`,
      [id],
    );
  }

  @SqlSnapshot(
    { name: 'first page', params: [EX.tenantId, 20] },
    { name: 'after a token', params: [EX.tenantId, 20, EX.tokenId] },
  )
  listInTenant(tenantId: string, limit: number, afterId?: string): Promise<SessionTokenEntity[]> {
    const query = this.tokens
      .createQueryBuilder('t')
      .where('t.tenant_id = :tenantId', { tenantId })
      .orderBy('t.created_at', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(limit + 1);
    if (afterId) {
      query.andWhere(
        '(t.created_at, t.id) < (SELECT c.created_at, c.id FROM cairn.session_tokens c WHERE c.id = :afterId)',
        { afterId },
      );
    }
    return query.getMany();
  }

  @SqlSnapshot({ params: [EX.tenantId, EX.tokenId] })
  findInTenant(tenantId: string, id: string): Promise<SessionTokenEntity | null> {
    return this.tokens.findOneBy({ tenantId, id });
  }

  @SqlSnapshot({ params: [EX.tenantId, EX.tokenId] })
  async revoke(tenantId: string, id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE cairn.session_tokens SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL`,
      [tenantId, id],
    );
  }

  /** Every live token of the tenant revoked, on `sql` (the transaction deleting the tenant); how many. */
  @SqlSnapshot({ params: [EX.tenantId, EX.sqlRunner] })
  async revokeAllOfTenant(tenantId: string, sql: SqlRunner): Promise<number> {
    const rows = (await sql(
      `WITH revoked AS (UPDATE cairn.session_tokens SET revoked_at = now() WHERE tenant_id = $1 AND revoked_at IS NULL
       RETURNING 1) SELECT count(*)::int AS n FROM revoked`,
      [tenantId],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  }
}

function toStoredToken(row: LookupRow): StoredToken {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    userRole: row.user_role,
    userDisabled: row.user_disabled,
    agentId: row.agent_id,
    role: row.role,
    projects: row.projects,
    toolsets: row.toolsets,
    defaultProject: row.default_project,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  };
}
