import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConflictError } from '@cairn/common';
import { type Account, AccountsRepository, DuplicatePlatformEmailError } from './accounts.repository';
import { Passwords } from './passwords.service';

/** Platform-operator accounts: people who administer the installation (tenants, queues, platform audit). */
@Injectable()
export class PlatformAccounts {
  constructor(
    private readonly accounts: AccountsRepository,
    private readonly passwords: Passwords,
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
}
