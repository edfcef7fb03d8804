import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { UsersService } from '@cairn/auth';
import { CairnError, ConflictError, ForbiddenError } from '@cairn/common';
import { type OidcProviderConfig } from '@cairn/config';
import { type LiveTenant } from '@cairn/tenancy';
import { AccountsRepository } from './accounts.repository';
import { type OidcIdentity } from './oidc-claims';
import { OidcIdentitiesRepository } from './oidc-identities.repository';

/** The tenant account a federated sign-in is for. */
export interface FederatedAccount {
  readonly accountId: string;
  readonly userId: string;
}

/**
 * Which Cairn user a person the identity provider vouched for is: the user linked to the
 * provider's subject, else the tenant's user with that email (linked from then on), else a new
 * user when the provider creates users just in time. The provider's mapping decides the role
 * at every sign-in, so a group removed at the IdP lowers the role at the next one (and the
 * person's live sessions, whose tokens are checked against the user's role, at once).
 */
@Injectable()
export class OidcAccounts {
  private readonly logger = new Logger('OidcAccounts');

  constructor(
    private readonly users: UsersService,
    private readonly accounts: AccountsRepository,
    private readonly identities: OidcIdentitiesRepository,
  ) {}

  async resolve(provider: OidcProviderConfig, tenant: LiveTenant, identity: OidcIdentity): Promise<FederatedAccount> {
    const key = { provider: provider.id, subject: identity.subject, tenantId: tenant.id };
    const linkedAccountId = await this.identities.signIn(key);
    const account = linkedAccountId
      ? await this.accounts.findById(linkedAccountId)
      : await this.firstSignIn(provider, tenant, identity);
    if (!account?.userId) throw new Error('a linked OIDC identity has no tenant account');
    const user = await this.users.get(tenant, account.userId);
    if (user.disabledAt || account.disabledAt) {
      throw new ForbiddenError('This account is disabled', 'account_disabled');
    }
    if (user.role !== identity.role) {
      await this.users.update(tenant, user.id, { role: identity.role });
      this.logger.log({ msg: 'role set by the identity provider', provider: provider.id, userId: user.id });
    }
    return { accountId: account.id, userId: user.id };
  }

  private async firstSignIn(provider: OidcProviderConfig, tenant: LiveTenant, identity: OidcIdentity) {
    const user =
      (await this.users.findByEmail(tenant, identity.email)) ?? (await this.create(provider, tenant, identity));
    const account = await this.accounts.ensureForUser(randomUUID(), tenant.id, user.id);
    const key = { provider: provider.id, subject: identity.subject, tenantId: tenant.id };
    if (!(await this.identities.link(key, account.id))) {
      // Someone else at this provider held the email before (or holds it now): not the same person.
      throw new ConflictError(
        'This user already signs in as another person of this identity provider',
        'identity_conflict',
      );
    }
    return account;
  }

  private async create(provider: OidcProviderConfig, tenant: LiveTenant, identity: OidcIdentity) {
    if (!provider.jitUsers) {
      throw new ForbiddenError(
        'There is no user with this email here; ask an administrator to add you',
        'user_not_found',
      );
    }
    try {
      return await this.users.create(tenant, { email: identity.email, name: identity.name, role: identity.role });
    } catch (error) {
      // Two first sign-ins at once: the other made the user.
      if (error instanceof CairnError && error.code === 'user_exists') {
        const user = await this.users.findByEmail(tenant, identity.email);
        if (user) return user;
      }
      throw error;
    }
  }
}
