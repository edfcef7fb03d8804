import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { UsersService } from '@cairn/auth';
import { BadRequestError } from '@cairn/common';
import { type TenantRef } from '@cairn/tenancy';
import { type Account, AccountsRepository } from './accounts.repository';
import { BrowserSessions } from './browser-sessions.service';
import { PasswordLinksRepository } from './password-links.repository';
import { Passwords } from './passwords.service';

const LINK_LIFETIME_MS = 24 * 3_600_000;
const LINK_SECRET = /^[A-Za-z0-9_-]{43}$/;

const hashOf = (secret: string) => createHash('sha256').update(secret).digest();

/**
 * One-time links that set a person's first password or reset a forgotten one, made by a tenant
 * admin (or the platform) for a user, or by a platform operator for another operator's account
 * (PlatformAccounts), and handed to the person out of band. The secret travels in the URL's
 * fragment, which browsers never send to a server or put in a Referer; only its hash is stored.
 */
@Injectable()
export class PasswordLinks {
  constructor(
    private readonly users: UsersService,
    private readonly accounts: AccountsRepository,
    private readonly links: PasswordLinksRepository,
    private readonly passwords: Passwords,
    private readonly sessions: BrowserSessions,
  ) {}

  /** A link for the user (its account is made if it has none); any older link stops working. */
  async issue(tenant: TenantRef, userId: string, issuedBy: string): Promise<{ url: string; expiresAt: Date }> {
    const user = await this.users.get(tenant, userId);
    if (user.disabledAt) throw new BadRequestError('The user is disabled', undefined, 'user_disabled');
    return this.issueFor(await this.accounts.ensureForUser(randomUUID(), tenant.id, user.id), issuedBy);
  }

  /** A link for an account the caller has found and may issue one for; any older link stops working. */
  async issueFor(account: Account, issuedBy: string): Promise<{ url: string; expiresAt: Date }> {
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + LINK_LIFETIME_MS);
    await this.links.replace({
      id: randomUUID(),
      accountId: account.id,
      tokenHash: hashOf(secret),
      createdBy: issuedBy,
      expiresAt,
    });
    return { url: `/console/reset-password#token=${secret}`, expiresAt };
  }

  /** Sets the password the link was made for; every browser session of the account ends. */
  async use(secret: string, password: string): Promise<void> {
    const accountId = LINK_SECRET.test(secret) ? await this.links.consume(hashOf(secret)) : undefined;
    if (!accountId)
      throw new BadRequestError(
        'This link is not valid: it was used, replaced or has expired',
        undefined,
        'link_invalid',
      );
    await this.accounts.setPassword(accountId, await this.passwords.hash(password));
    await this.sessions.endAllOfAccount(accountId);
  }
}
