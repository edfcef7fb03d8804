import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Principal, type SessionPrincipal } from '@cairn/access';
import { type CairnError, ForbiddenError, UnauthenticatedError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { AuthChangeListener } from './auth-change-listener.service';
import { BearerSchemes } from './bearer-schemes.service';
import { ExternalTokenVerifier } from './external-token-verifier.service';
import { evaluateToken, type TokenEvaluation } from './token-evaluation';
import { hashToken, isWellFormedSessionToken, SESSION_TOKEN_PREFIX, secretsEqual } from './token-format';
import { TokenLookups } from './token-lookups.service';
import { type TokenLookup, TokensRepository } from './tokens.repository';

const TOUCH_INTERVAL_MS = 60_000;
const TOUCH_MEMORY = 10_000;

/** Turns an `Authorization` header into a principal, or a 401 that says why. */
@Injectable()
export class TokenVerifier {
  private readonly logger = new Logger('TokenVerifier');
  /** When this replica last recorded each token's use; keeps verification to one round trip. */
  private readonly lastTouched = new Map<string, number>();

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly tokens: TokensRepository,
    private readonly lookups: TokenLookups,
    private readonly changes: AuthChangeListener,
    private readonly external: ExternalTokenVerifier,
    private readonly schemes: BearerSchemes,
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
    if (this.isPlatformAdminToken(token)) return { kind: 'platform' };
    // A JWT access token of an external authorization server (the gateway's MCP_AUTHORIZATION_SERVERS).
    if (this.external.accepts(token)) return this.external.verify(token, challenge);
    // An access token of Cairn's own authorization server, when this process serves it (@cairn/oauth).
    const scheme = this.schemes.find(token);
    if (scheme) return scheme.verify(token, challenge);
    throw new UnauthenticatedError('invalid_token', 'Token is not recognised', challenge);
  }

  /** Whether `token` is the platform admin bootstrap token (CAIRN_ADMIN_TOKEN), compared in constant time. */
  isPlatformAdminToken(token: string): boolean {
    const adminToken = this.config.secrets.adminToken;
    return adminToken !== undefined && secretsEqual(token, adminToken);
  }

  /**
   * The principal of the token with this id, through the very checks a presented token gets
   * (revoked, expired, user disabled, tenant gone, role capped by the user's): a browser
   * session holds its token's id and acts as that token. 401 with the token's reason otherwise.
   */
  async verifyTokenId(tokenId: string): Promise<SessionPrincipal> {
    const evaluation = evaluateToken(await this.lookups.findById(tokenId), new Date());
    if (!evaluation.active) throw refusal(evaluation);
    this.recordUse(evaluation.principal.tokenId);
    return evaluation.principal;
  }

  private async verifySession(token: string, challenge: Record<string, string>): Promise<Principal> {
    if (!isWellFormedSessionToken(token)) {
      throw new UnauthenticatedError('invalid_token', 'Malformed session token', challenge);
    }
    const evaluation = evaluateToken(await this.lookup(hashToken(token)), new Date());
    if (!evaluation.active) throw refusal(evaluation, challenge);
    this.recordUse(evaluation.principal.tokenId);
    return evaluation.principal;
  }

  /**
   * From the cache when it is trusted (the change notices empty it on every replica at commit,
   * so a revocation still bites at the next request), else the database (TokenLookups). Only
   * tokens that exist are remembered: random guesses cannot fill the cache.
   */
  private async lookup(hash: Buffer): Promise<TokenLookup | undefined> {
    const cache = this.changes.cache;
    if (cache.get(hash)) {
      // One turn of the event loop first: a change notice already in the socket is read and
      // applied before the remembered answer is used (a notice and a request can arrive together).
      await new Promise((resolve) => setImmediate(resolve));
      const cached = cache.get(hash);
      if (cached) return cached;
    }
    this.changes.start();
    const mark = cache.mark;
    const found = await this.lookups.find(hash);
    if (found) cache.store(hash, found, mark);
    return found;
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
  // Long enough for the JWT access tokens of external authorization servers (Entra ID's run to kilobytes).
  const match = /^Bearer[ ]+([\x21-\x7e]{1,8192})[ ]*$/i.exec(header);
  return match?.[1];
}

/** The error of a refused token: 403 for a suspended tenant (the credential itself is good), else a 401 challenge. */
function refusal(
  evaluation: Extract<TokenEvaluation, { active: false }>,
  challenge: Record<string, string> = {},
): CairnError {
  if (evaluation.code === 'tenant_suspended') return new ForbiddenError(evaluation.message, evaluation.code);
  return new UnauthenticatedError(evaluation.code, evaluation.message, challenge);
}
