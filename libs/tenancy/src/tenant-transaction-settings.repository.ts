import { Injectable } from '@nestjs/common';
import { SqlSnapshot } from '@cairn/db';
import { transactionOpeningSql } from './tenant-connections.sql';
import { TenantDb } from './tenant-db.service';

/**
 * Transaction-local settings added to a tenant transaction already open (a nested
 * TenantTransaction.run with settings of its own): the outermost transaction sets its settings in
 * its first statement (TenantConnections.transaction); a nested call joins it and needs this one
 * extra statement.
 */
@Injectable()
export class TenantTransactionSettingsRepository {
  constructor(private readonly db: TenantDb) {}

  /** `SELECT set_config($1, $2, true), …`: each setting until the transaction ends. */
  @SqlSnapshot({ params: [[['hnsw.iterative_scan', 'relaxed_order']]] })
  async apply(settings: readonly (readonly [string, string])[]): Promise<void> {
    await this.db.query(transactionOpeningSql(false, settings.length), settings.flat());
  }
}
