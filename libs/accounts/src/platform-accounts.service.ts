import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { BadRequestError, ConflictError, NotFoundError } from '@cairn/common';
import {
  type Account,
  AccountsRepository,
  DuplicatePlatformEmailError,
  LastPlatformAccountError,
  type PlatformAccountRecord,
} from './accounts.repository';
import { BrowserSessions } from './browser-sessions.service';
import { PasswordLinks } from './password-links.service';
import { Passwords } from './passwords.service';

export interface PlatformAccountPage {
  readonly items: PlatformAccountRecord[];
  readonly nextCursor: string | null;
}

/**
 * Platform-operator accounts: people who administer the installation (tenants, queues, platform
 * audit), and who manage one another: list, disable (every browser session of the account ends at
 * once; a platform session reads its account on every request, so no replica lets it in
 * afterwards), enable, issue a password link. An operator cannot disable themselves, nor the last
 * enabled operator.
 */
@Injectable()
export class PlatformAccounts {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly passwords: Passwords,
    private readonly sessions: BrowserSessions,
    private readonly links: PasswordLinks,
  ) {}

  async create(input: { email: string; name: string; password: string }): Promise<Account> {
    const hash = await this.passwords.hash(input.password);
    try {
      return await this.accounts.insertPlatform(randomUUID(), input.email, input.name, hash);
    } catch (error) {
      if (error instanceof DuplicatePlatformEmailError) {
        throw new ConflictError(`A platform account with email "${input.email}" already exists`, 'account_exists');
      }
      throw error;
    }
  }

  async list(limit: number, cursor?: string): Promise<PlatformAccountPage> {
    const rows = await this.accounts.listPlatform(limit, cursor);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? last.id : null };
  }

  /**
   * Disables the account and ends every browser session it has. `byAccountId`: the operator
   * asking (absent for the platform admin token), who may not disable themselves.
   */
  async disable(id: string, byAccountId: string | undefined): Promise<PlatformAccountRecord> {
    if (id === byAccountId) {
      throw new BadRequestError(
        'You cannot disable your own account; another operator can',
        undefined,
        'cannot_disable_self',
      );
    }
    let account: PlatformAccountRecord | undefined;
    try {
      account = await this.accounts.disablePlatform(id);
    } catch (error) {
      if (error instanceof LastPlatformAccountError) {
        throw new ConflictError(
          'This is the last enabled platform account: enable or create another one first',
          'last_operator',
        );
      }
      throw error;
    }
    if (!account) throw new NotFoundError('Platform account');
    await this.sessions.endAllOfAccount(account.id);
    return account;
  }

  async enable(id: string): Promise<PlatformAccountRecord> {
    const account = await this.accounts.enablePlatform(id);
    if (!account) throw new NotFoundError('Platform account');
    return account;
  }

  /** A one-time link that sets the operator's password (any older link stops working). */
  async passwordLink(id: string, issuedBy: string): Promise<{ url: string; expiresAt: Date }> {
    const account = await this.accounts.findById(id);
    if (!account || account.userId !== null) throw new NotFoundError('Platform account');
    if (account.disabledAt) {
      throw new BadRequestError('The account is disabled: enable it first', undefined, 'account_disabled');
    }
    return this.links.issueFor(account, issuedBy);
  }
}
