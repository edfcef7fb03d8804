import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Principal } from '@cairn/access';
import { UnauthenticatedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { LRUCache } from 'lru-cache';
import { evaluateToken } from './token-evaluation';
import { hashToken, isWellFormedSessionToken, SESSION_TOKEN_PREFIX, secretsEqual } from './token-format';
import { TokensRepository } from './tokens.repository';

const TOUCH_INTERVAL_MS = 60_000;
const TOUCH_MEMORY = 10_000;
const KNOWN_TOKENS = 10_000;

/** What never changes about a token: its id and its tenant's. */
export interface TokenIds {
  readonly tokenId: string;
  readonly tenantId: string;
}

/** Turns an `Authorization` header into a principal, or a 401 that says why. */
@Injectable()
export class TokenVerifier {
  private readonly logger = new Logger('TokenVerifier');
  /** When this replica last recorded each token's use; keeps verification to one round trip. */
  private readonly lastTouched = new Map<string, number>();
  /**
   * Ids of the tokens this replica last found valid, by token hash. Not a cache of the
   * verdict (every request is still looked up, so a revocation counts at the next request):
   * a token's id and tenant never change, so a caller may start work keyed by them while the
   * lookup runs, and undo it if the token turns out invalid. A failed verification forgets them.
   */
  private readonly known = new LRUCache<string, TokenIds>({ max: KNOWN_TOKENS });

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tokens: TokensRepository,
  ) {}

  async authenticate(authorization: string | undefined, challenge: Record<string, string> = {}): Promise<Principal> {
    const token = bearerToken(authorization);
    if (token === undefined) {
      throw new UnauthenticatedError(
        'unauthenticated',
        'Missing bearer token: send Authorization: Bearer <token>',
        challenge,
      );
    }
    if (token.startsWith(SESSION_TOKEN_PREFIX)) return this.verifySession(token, challenge);
    const adminToken = this.config.secrets.adminToken;
    if (adminToken !== undefined && secretsEqual(token, adminToken)) return { kind: 'platform' };
    throw new UnauthenticatedError('invalid_token', 'Token is not recognised', challenge);
  }

  /**
   * The ids of the session token in `authorization` if this replica has found it valid
   * before; says nothing about whether it is valid now (only `authenticate` does).
   */
  knownIds(authorization: string | undefined): TokenIds | undefined {
    const token = bearerToken(authorization);
    if (token === undefined || !isWellFormedSessionToken(token)) return undefined;
    return this.known.get(hashToken(token).toString('base64'));
  }

  private async verifySession(token: string, challenge: Record<string, string>): Promise<Principal> {
    if (!isWellFormedSessionToken(token)) {
      throw new UnauthenticatedError('invalid_token', 'Malformed session token', challenge);
    }
    const hash = hashToken(token);
    const evaluation = evaluateToken(await this.tokens.lookup(hash), new Date());
    const key = hash.toString('base64');
    if (!evaluation.active) {
      this.known.delete(key);
      throw new UnauthenticatedError(evaluation.code, evaluation.message, challenge);
    }
    const { principal } = evaluation;
    this.known.set(key, { tokenId: principal.tokenId, tenantId: principal.tenant.id });
    this.recordUse(principal.tokenId);
    return principal;
  }

  private recordUse(tokenId: string): void {
    const now = Date.now();
    if (now - (this.lastTouched.get(tokenId) ?? 0) < TOUCH_INTERVAL_MS) return;
    if (this.lastTouched.size >= TOUCH_MEMORY) this.lastTouched.clear();
    this.lastTouched.set(tokenId, now);
    this.tokens.touch(tokenId).catch((error: unknown) => {
      this.logger.warn({ msg: 'could not record token use', err: error });
    });
  }
}

function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ ]+([\x21-\x7e]{1,1024})[ ]*$/i.exec(header);
  return match?.[1];
}
