import { Inject, Injectable } from '@nestjs/common';
import { TokenVerifier, UsersService } from '@cairn/auth';
import { CairnError, ForbiddenError } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type LiveTenant, TenantsService, toLiveTenant } from '@cairn/tenancy';
import { type Account, AccountsRepository } from './accounts.repository';
import { BrowserSessions, type SessionClient, type StartedSession } from './browser-sessions.service';
import { LoginThrottle } from './login-throttle.service';
import { Passwords } from './passwords.service';
import { TotpFactor } from './totp.service';

export interface LoginInput {
  /** The tenant's slug; absent for a platform-operator account. */
  readonly tenant?: string;
  readonly email: string;
  readonly password: string;
  readonly totp?: string;
}

const refused = () => new CairnError(401, 'invalid_credentials', 'Email or password is wrong');

/**
 * Local sign-in: email and password (and a TOTP code when the account has one), throttled per
 * account and per client address. An unknown tenant, an unknown email and a wrong password give
 * one answer, after the same Argon2 work.
 */
@Injectable()
export class SignIn {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly accounts: AccountsRepository,
    private readonly users: UsersService,
    private readonly tenants: TenantsService,
    private readonly passwords: Passwords,
    private readonly throttle: LoginThrottle,
    private readonly totp: TotpFactor,
    private readonly sessions: BrowserSessions,
    private readonly verifier: TokenVerifier,
  ) {}

  async login(input: LoginInput, client: SessionClient): Promise<StartedSession & { tenant?: LiveTenant }> {
    if (!this.config.accounts.localLoginEnabled) {
      throw new ForbiddenError('Sign-in with a password is turned off here', 'local_login_disabled');
    }
    const email = input.email.toLowerCase();
    const accountKey = `${input.tenant ?? '-'}:${email}`;
    await this.throttle.assertAllowed(accountKey, client.ip);
    const found = await this.find(input.tenant, email);
    const matches = await this.passwords.matches(found?.account.passwordHash, input.password);
    if (!found || !matches) {
      await this.throttle.recordFailure(accountKey, client.ip);
      throw refused();
    }
    const { account, tenant, userId, disabled, suspended } = found;
    // Told only to someone who knows the password: it reveals nothing to a guesser.
    if (disabled) throw new ForbiddenError('This account is disabled', 'account_disabled');
    if (suspended) throw new ForbiddenError('This workspace is suspended; ask the operator', 'tenant_suspended');
    if (account.totpSecret) {
      if (input.totp === undefined)
        throw new CairnError(401, 'totp_required', 'Enter the code from your authenticator app');
      if (!(await this.totp.verify(account, input.totp))) {
        await this.throttle.recordFailure(accountKey, client.ip);
        throw new CairnError(401, 'totp_invalid', 'The code is wrong or was used already');
      }
    }
    await this.throttle.recordSuccess(accountKey);
    if (tenant && userId) {
      const started = await this.sessions.start({ kind: 'tenant', accountId: account.id, tenant, userId }, client);
      return { ...started, tenant };
    }
    return this.sessions.start({ kind: 'platform', accountId: account.id }, client);
  }

  /**
   * The first way in on a new installation: the platform admin token (CAIRN_ADMIN_TOKEN) gives a
   * session that may do nothing but create the first platform-operator account.
   */
  async bootstrap(token: string, client: SessionClient): Promise<StartedSession> {
    await this.throttle.assertAllowed(undefined, client.ip);
    if (!this.verifier.isPlatformAdminToken(token)) {
      await this.throttle.recordFailure(undefined, client.ip);
      throw new CairnError(401, 'invalid_credentials', 'This is not the platform admin token');
    }
    return this.sessions.start({ kind: 'bootstrap' }, client);
  }

  private async find(
    slug: string | undefined,
    email: string,
  ): Promise<
    { account: Account; tenant?: LiveTenant; userId?: string; disabled: boolean; suspended: boolean } | undefined
  > {
    if (slug === undefined) {
      const account = await this.accounts.findPlatformByEmail(email);
      return account && { account, disabled: account.disabledAt !== null, suspended: false };
    }
    const entity = await this.tenants.findBySlug(slug);
    if (!entity) return undefined;
    const tenant = toLiveTenant(entity);
    const user = await this.users.findByEmail(tenant, email);
    const account = user ? await this.accounts.findByUserId(user.id) : undefined;
    if (!user || !account) return undefined;
    return {
      account,
      tenant,
      userId: user.id,
      disabled: user.disabledAt !== null || account.disabledAt !== null,
      suspended: entity.suspendedAt !== null,
    };
  }
}
