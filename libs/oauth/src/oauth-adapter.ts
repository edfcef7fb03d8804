import { createHash } from 'node:crypto';
import { type OAuthRecordsRepository } from './oauth-records.repository';

/**
 * The artifacts whose id is what a client or browser presents (a code, a token, the provider's
 * session cookie): stored under the id's SHA-256, so cairn.oauth_records holds no usable secret.
 * The others (interactions, grants, clients, replay markers) are stored by their id as is.
 */
const SECRET_KINDS = new Set([
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'Session',
]);

export function storedIdOf(kind: string, id: string): string {
  return SECRET_KINDS.has(kind) ? createHash('sha256').update(id).digest('hex') : id;
}

type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: unknown };

/** Cairn's side of a grant: a revoked one is unknown to the provider; one the provider revokes is revoked in Cairn. */
export interface GrantLink {
  isLive(grantId: string): Promise<boolean>;
  revokedByServer(grantId: string): Promise<void>;
}

/**
 * oidc-provider's adapter interface (one instance per model kind) over cairn.oauth_records, so
 * every replica of the api shares codes, tokens, clients and interactions through PostgreSQL.
 * Consumption is recorded in its own column and reported back as `consumed`, which is how the
 * provider detects a replayed authorization code (and then revokes what that code issued).
 */
export function oauthAdapterClass(records: OAuthRecordsRepository, grants: GrantLink) {
  return class PostgresOAuthAdapter {
    constructor(private readonly kind: string) {}

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      await records.upsert({
        kind: this.kind,
        id: storedIdOf(this.kind, id),
        payload,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        expiresInSeconds: typeof expiresIn === 'number' && expiresIn > 0 ? Math.ceil(expiresIn) : null,
      });
    }

    async find(id: string): Promise<Payload | undefined> {
      const found = await records.find(this.kind, storedIdOf(this.kind, id));
      if (!found) return undefined;
      // A grant revoked in Cairn (console, admin API) is gone for the provider too: no refresh from it.
      if (this.kind === 'Grant' && !(await grants.isLive(id))) return undefined;
      return withConsumed(found.payload, found.consumedAt);
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const found = await records.findByUid(this.kind, uid);
      return found && withConsumed(found.payload, found.consumedAt);
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      const found = await records.findByUserCode(this.kind, userCode);
      return found && withConsumed(found.payload, found.consumedAt);
    }

    async consume(id: string): Promise<void> {
      await records.consume(this.kind, storedIdOf(this.kind, id));
    }

    async destroy(id: string): Promise<void> {
      await records.destroy(this.kind, storedIdOf(this.kind, id));
    }

    /**
     * The provider revokes a grant when a code is replayed or a rotated refresh token reused (a
     * stolen credential), or a client revokes its refresh token: the grant ends in Cairn as well,
     * before the provider answers.
     */
    async revokeByGrantId(grantId: string): Promise<void> {
      await records.destroyByGrantId(grantId);
      await grants.revokedByServer(grantId);
    }
  };
}

function withConsumed(payload: Record<string, unknown>, consumedAt: Date | null): Payload {
  return consumedAt ? { ...payload, consumed: Math.floor(consumedAt.getTime() / 1000) } : payload;
}
