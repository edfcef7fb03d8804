import { Injectable } from '@nestjs/common';
import { type BrowserSessionRef, type Principal, ROLE_PERMISSIONS } from '@cairn/access';
import { UsersService } from '@cairn/auth';
import { ForbiddenError } from '@cairn/common';
import { type Account, AccountsRepository } from './accounts.repository';
import { BrowserSessions } from './browser-sessions.service';
import { type SessionView } from './contract/session.dto';

/** What the console shows about the person (or token) calling: `GET /v1/session` and sign-in answers. */
@Injectable()
export class SessionViews {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly users: UsersService,
    private readonly sessions: BrowserSessions,
  ) {}

  async describe(principal: Principal, session: BrowserSessionRef | undefined): Promise<SessionView> {
    const browser = session
      ? {
          via: 'browser' as const,
          mustCreateAccount: session.mustCreateAccount,
          csrfToken: this.sessions.csrfToken(session.id),
          expiresAt: session.expiresAt.toISOString(),
          idleExpiresAt: session.idleExpiresAt.toISOString(),
        }
      : undefined;
    if (principal.kind === 'platform') {
      const account = principal.accountId ? await this.accounts.findById(principal.accountId) : undefined;
      return {
        kind: 'platform',
        ...(account
          ? {
              account: {
                id: account.id,
                email: account.email ?? '',
                name: account.name ?? '',
                secondFactor: Boolean(account.totpSecret),
              },
            }
          : {}),
        role: 'platform',
        permissions: ['*'],
        ...(browser ?? { via: 'token', mustCreateAccount: false, expiresAt: null }),
        ...(session?.mustCreateAccount
          ? { notice: 'Signed in with the bootstrap token: create a platform account, then sign in with it' }
          : {}),
      };
    }
    let account: SessionView['account'];
    if (session?.accountId && principal.userId) {
      const [user, stored] = await Promise.all([
        this.users.get(principal.tenant, principal.userId),
        this.accounts.findById(session.accountId),
      ]);
      // The console's account page shows whether to offer turning the second factor on or off.
      account = {
        id: session.accountId,
        email: user.email,
        name: user.name,
        secondFactor: Boolean(stored?.totpSecret),
      };
    }
    return {
      kind: 'tenant',
      ...(account ? { account } : {}),
      tenant: { slug: principal.tenant.slug, name: principal.tenant.name },
      role: principal.role,
      permissions: [...ROLE_PERMISSIONS[principal.role]],
      ...(browser ?? { via: 'token', mustCreateAccount: false, expiresAt: principal.expiresAt.toISOString() }),
    };
  }

  /** The signed-in account behind a browser session; 403 for a bearer token or the bootstrap session. */
  async accountOf(session: BrowserSessionRef | undefined): Promise<Account> {
    const account = session?.accountId ? await this.accounts.findById(session.accountId) : undefined;
    if (!account)
      throw new ForbiddenError('This needs a browser session of a signed-in account', 'browser_session_required');
    return account;
  }
}
