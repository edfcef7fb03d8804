import { Injectable } from '@nestjs/common';
import { TenantSettingsRepository } from './tenant-settings.repository';
import { TenantTransaction } from './tenant-transaction.service';

/**
 * The current tenant's settings (`tenant_settings`, key → JSON), one key per capability that
 * has settings (`extraction`, `memory`, `secrets`): the owner of each key validates its value;
 * this only stores it. Each call joins the caller's tenant transaction.
 */
@Injectable()
export class TenantSettingsStore {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: TenantSettingsRepository,
  ) {}

  /** The stored value of `key`, undefined when it was never set. */
  read(key: string): Promise<unknown> {
    return this.tx.run(() => this.settings.find(key));
  }

  write(key: string, value: unknown): Promise<void> {
    return this.tx.run(() => this.settings.upsert(key, value));
  }
}
