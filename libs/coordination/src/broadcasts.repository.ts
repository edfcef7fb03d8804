import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type ChainedBroadcast } from './broadcast-chain';
import { BROADCAST_SQL } from './broadcasts.sql';
import { type Broadcast, type BroadcastType } from './contract/broadcast.types';

const COLUMNS = BROADCAST_SQL.columns;

interface Row {
  seq: string;
  type: BroadcastType;
  summary: string;
  files: string[];
  reply_to: string | null;
  assignee: string | null;
  author_user_id: string | null;
  author_agent_id: string | null;
  author_token_id: string;
  at: Date;
  prev_hash: Buffer;
  hash: Buffer;
}

/** A message with its raw chain links, as `verify` walks them. */
export interface StoredBroadcast extends Broadcast {
  readonly prevHashBytes: Buffer;
  readonly hashBytes: Buffer;
}

/** A message to append: the chained fields and its links. */
export type NewBroadcast = ChainedBroadcast & { readonly prevHash: Buffer; readonly hash: Buffer };

export interface StoredKey {
  readonly hash: Buffer;
  readonly salt: Buffer;
  readonly params: Record<string, unknown>;
  readonly setAt: Date;
}

export interface PageFilter {
  readonly after: number;
  readonly types: readonly BroadcastType[] | null;
  readonly assignee: string | null;
  readonly unacknowledged: boolean;
  readonly limit: number;
}

/**
 * A project's coordination channel: `broadcasts` (append-only, hash-chained; the table's trigger
 * refuses update and delete), `broadcast_acks` and the optional key in `broadcast_channels`.
 * Every call runs inside a tenant transaction.
 */
@Injectable()
export class BroadcastsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Serialises the project's posters (and key changes) until the transaction ends, so each
   * reads the chain's true head and the sequence has no gaps. A transaction-level advisory lock
   * on the project id: no row needs to exist first, and readers never wait for it.
   */
  @SqlSnapshot({ params: [EX.projectId] })
  async lockChannel(projectId: string): Promise<void> {
    await this.db.query(BROADCAST_SQL.lock, [`cairn.broadcasts:${projectId}`]);
  }

  @SqlSnapshot({ params: [EX.projectId] })
  async key(projectId: string): Promise<StoredKey | null> {
    const [row] = await this.db.query<{
      key_hash: Buffer;
      key_salt: Buffer;
      key_params: Record<string, unknown>;
      key_set_at: Date;
    }>(
      `SELECT key_hash, key_salt, key_params, key_set_at FROM broadcast_channels
       WHERE project_id = $1 AND key_hash IS NOT NULL`,
      [projectId],
    );
    return row ? { hash: row.key_hash, salt: row.key_salt, params: row.key_params, setAt: row.key_set_at } : null;
  }

  @SqlSnapshot({
    params: [EX.projectId, { hash: Buffer.alloc(32, 3), salt: Buffer.alloc(16, 4), params: { N: 16384, r: 8, p: 1 } }],
  })
  async setKey(projectId: string, key: Omit<StoredKey, 'setAt'>): Promise<Date> {
    const [row] = await this.db.query<{ key_set_at: Date }>(
      `INSERT INTO broadcast_channels (project_id, key_hash, key_salt, key_params, key_set_at)
       VALUES ($1, $2, $3, $4::jsonb, now())
       ON CONFLICT (project_id) DO UPDATE
         SET key_hash = EXCLUDED.key_hash, key_salt = EXCLUDED.key_salt, key_params = EXCLUDED.key_params,
             key_set_at = EXCLUDED.key_set_at
       RETURNING key_set_at`,
      [projectId, key.hash, key.salt, JSON.stringify(key.params)],
    );
    return row.key_set_at;
  }

  /** True when there was a key to clear. */
  @SqlSnapshot({ params: [EX.projectId] })
  async clearKey(projectId: string): Promise<boolean> {
    // Through a CTE: TypeORM answers a bare UPDATE with [rows, count], a SELECT with rows.
    const [row] = await this.db.query<{ n: number }>(
      `WITH cleared AS (
         UPDATE broadcast_channels SET key_hash = NULL, key_salt = NULL, key_params = NULL, key_set_at = NULL
         WHERE project_id = $1 AND key_hash IS NOT NULL RETURNING 1)
       SELECT count(*)::int AS n FROM cleared`,
      [projectId],
    );
    return row.n > 0;
  }

  /**
   * What a post needs under the channel lock, in one round trip: the key, if one is set, and the
   * chain's newest link (null for an empty channel). Sequence numbers run 1..head without gaps.
   */
  @SqlSnapshot({ params: [EX.projectId] })
  async channelHead(projectId: string): Promise<{ key: StoredKey | null; last: { seq: number; hash: Buffer } | null }> {
    const [row] = await this.db.query<{
      key_hash: Buffer | null;
      key_salt: Buffer | null;
      key_params: Record<string, unknown> | null;
      key_set_at: Date | null;
      last_seq: string | null;
      last_hash: Buffer | null;
    }>(BROADCAST_SQL.channelHead, [projectId]);
    const key =
      row.key_hash && row.key_salt && row.key_params && row.key_set_at
        ? { hash: row.key_hash, salt: row.key_salt, params: row.key_params, setAt: row.key_set_at }
        : null;
    const last = row.last_seq !== null && row.last_hash ? { seq: Number(row.last_seq), hash: row.last_hash } : null;
    return { key, last };
  }

  @SqlSnapshot({
    params: [
      {
        projectId: EX.projectId,
        seq: 1,
        type: 'ASSIGN',
        summary: 'Take the deploy ticket',
        files: ['deploy/helm/values.yaml'],
        replyTo: null,
        assignee: EX.otherAgentId,
        author: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
        at: EX.date,
        prevHash: Buffer.alloc(32, 1),
        hash: Buffer.alloc(32, 2),
      },
    ],
  })
  async insert(message: NewBroadcast): Promise<Broadcast> {
    const [row] = await this.db.query<Row>(BROADCAST_SQL.insert, [
      message.projectId,
      message.seq,
      message.type,
      message.summary,
      message.files,
      message.replyTo,
      message.assignee,
      message.author.userId,
      message.author.agentId,
      message.author.tokenId,
      message.at,
      message.prevHash,
      message.hash,
    ]);
    return toBroadcast(row);
  }

  /** Oldest first after `filter.after`, one more than the limit (so the caller knows whether more follow). */
  @SqlSnapshot({
    params: [
      EX.projectId,
      `agent:${EX.agentId}`,
      { after: 0, types: ['ASSIGN', 'STATUS'], assignee: EX.agentId, unacknowledged: true, limit: 50 },
    ],
  })
  async page(
    projectId: string,
    agentKey: string,
    filter: PageFilter,
  ): Promise<(Broadcast & { acknowledged: boolean })[]> {
    const rows = await this.db.query<Row & { acknowledged: boolean }>(BROADCAST_SQL.page, [
      projectId,
      agentKey,
      filter.after,
      filter.types,
      filter.assignee,
      filter.unacknowledged,
      filter.limit + 1,
    ]);
    return rows.map((row) => ({ ...toBroadcast(row), acknowledged: row.acknowledged }));
  }

  @SqlSnapshot({ params: [EX.projectId] })
  async head(projectId: string): Promise<number> {
    const [row] = await this.db.query<{ head: string }>(
      `SELECT coalesce(max(seq), 0)::text AS head FROM broadcasts WHERE project_id = $1`,
      [projectId],
    );
    return Number(row.head);
  }

  /** Acknowledges the given messages that exist; returns which exist and which this call recorded. */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`, [1, 2]] })
  async acknowledge(
    projectId: string,
    agentKey: string,
    seqs: readonly number[],
  ): Promise<{ existing: number[]; recorded: number[] }> {
    const [row] = await this.db.query<{ existing: string[] | null; recorded: string[] | null }>(
      `WITH existing AS (SELECT seq FROM broadcasts WHERE project_id = $1 AND seq = ANY($3::bigint[])),
            recorded AS (
              INSERT INTO broadcast_acks (project_id, seq, agent_key)
              SELECT $1, seq, $2 FROM existing
              ON CONFLICT DO NOTHING RETURNING seq)
       SELECT (SELECT array_agg(seq::text) FROM existing) AS existing,
              (SELECT array_agg(seq::text) FROM recorded) AS recorded`,
      [projectId, agentKey, seqs],
    );
    return { existing: (row.existing ?? []).map(Number), recorded: (row.recorded ?? []).map(Number) };
  }

  /** Oldest first, with their raw links, for verification. */
  @SqlSnapshot({ params: [EX.projectId, 0, 500] })
  async chainPage(projectId: string, afterSeq: number, limit: number): Promise<StoredBroadcast[]> {
    const rows = await this.db.query<Row>(
      `SELECT ${COLUMNS} FROM broadcasts b WHERE b.project_id = $1 AND b.seq > $2 ORDER BY b.seq LIMIT $3`,
      [projectId, afterSeq, limit],
    );
    return rows.map((row) => ({ ...toBroadcast(row), prevHashBytes: row.prev_hash, hashBytes: row.hash }));
  }

  /** Newest first: messages addressed to `assignee` that `agentKey` has not acknowledged, and how many in all. */
  @SqlSnapshot({ params: [EX.projectId, EX.agentId, `agent:${EX.agentId}`, 20] })
  async unacknowledgedFor(
    projectId: string,
    assignee: string,
    agentKey: string,
    limit: number,
  ): Promise<{ items: Broadcast[]; total: number }> {
    const rows = await this.db.query<Row & { total: string }>(
      `SELECT ${COLUMNS}, count(*) OVER ()::text AS total
       FROM broadcasts b
       WHERE b.project_id = $1 AND b.assignee = $2
         AND NOT EXISTS (SELECT 1 FROM broadcast_acks a
                         WHERE a.project_id = b.project_id AND a.seq = b.seq AND a.agent_key = $3)
       ORDER BY b.seq DESC
       LIMIT $4`,
      [projectId, assignee, agentKey, limit],
    );
    return { items: rows.map(toBroadcast), total: rows.length > 0 ? Number(rows[0].total) : 0 };
  }

  /** Each author's newest STATUS among the channel's recent ones, newest first. */
  @SqlSnapshot({ params: [EX.projectId, 200, 20] })
  async latestStatus(projectId: string, recent: number, limit: number): Promise<Broadcast[]> {
    const rows = await this.db.query<Row>(
      `SELECT * FROM (
         SELECT DISTINCT ON (author) * FROM (
           SELECT ${COLUMNS},
                  coalesce('agent:' || b.author_agent_id, 'user:' || b.author_user_id::text,
                           'token:' || b.author_token_id::text) AS author
           FROM broadcasts b WHERE b.project_id = $1 AND b.type = 'STATUS'
           ORDER BY b.seq DESC LIMIT $2) recent
         ORDER BY author, seq::bigint DESC) latest
       ORDER BY seq::bigint DESC
       LIMIT $3`,
      [projectId, recent, limit],
    );
    return rows.map(toBroadcast);
  }
}

function toBroadcast(row: Row): Broadcast {
  return {
    seq: Number(row.seq),
    type: row.type,
    summary: row.summary,
    files: row.files,
    replyTo: row.reply_to === null ? null : Number(row.reply_to),
    assignee: row.assignee,
    author: { userId: row.author_user_id, agentId: row.author_agent_id, tokenId: row.author_token_id },
    at: row.at,
    prevHash: row.prev_hash.toString('hex'),
    hash: row.hash.toString('hex'),
  };
}
