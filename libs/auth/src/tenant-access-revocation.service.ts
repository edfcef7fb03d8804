import { Injectable, type OnModuleInit } from '@nestjs/common';
import { TenantDeletionSteps } from '@cairn/tenancy';
import { TokensRepository } from './tokens.repository';
import { UsersRepository } from './users.repository';

/**
 * A tenant's deletion (@cairn/tenancy) revokes every token and disables every user of the
 * tenant in the same transaction: tokens and users are auth's, so auth registers the step. Browser
 * sessions act through tokens of their own (docs/sign-in.md), so they end with them.
 */
@Injectable()
export class TenantAccessRevocation implements OnModuleInit {
  constructor(
    private readonly steps: TenantDeletionSteps,
    private readonly tokens: TokensRepository,
    private readonly users: UsersRepository,
  ) {}

  onModuleInit(): void {
    this.steps.register('auth', async (tenantId, sql) => ({
      tokensRevoked: await this.tokens.revokeAllOfTenant(tenantId, sql),
      usersDisabled: await this.users.disableAllOfTenant(tenantId, sql),
    }));
  }
}
