import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { ForbiddenError } from '@cairn/common';
import { EncryptionError, EnvelopeEncryption, envelopeKeyVersion } from '@cairn/encryption';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import { type BackedUpSecret } from './contract/secret-backup.types';
import { type SealedSecret } from './contract/secret-redaction.types';
import { SecretsRepository } from './secrets.repository';

/**
 * Backups of sealed originals (issue 12 §2): an export carries placeholders only, unless an admin
 * asks for the originals as ciphertext; an import of such a file into the same tenant restores
 * them. The value never leaves sealed: export copies the envelope, import checks that the
 * envelope opens under this tenant's key for its placeholder before keeping it.
 */
@Injectable()
export class SecretBackup {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly repository: SecretsRepository,
    private readonly encryption: EnvelopeEncryption,
  ) {}

  /** Only a tenant admin exports or imports ciphertext (whoever holds it can restore and then read it). */
  assertMayBackUp(principal: SessionPrincipal): void {
    if (principal.role !== 'admin') {
      throw new ForbiddenError('Only a tenant admin may export or import secrets as ciphertext', 'secrets_admin_only');
    }
  }

  /** The sealed originals kept for these rows of `sourceTable`, by row id; inside the caller's tenant transaction. */
  async sealedFor(sourceTable: string, sourceIds: readonly string[]): Promise<Map<string, BackedUpSecret[]>> {
    const stored = await this.tx.run(() => this.repository.findBySources(sourceTable, sourceIds));
    const bySource = new Map<string, BackedUpSecret[]>();
    for (const secret of stored) {
      const backedUp: BackedUpSecret = {
        id: secret.placeholderId,
        type: secret.type,
        ruleId: secret.ruleId,
        keyVersion: envelopeKeyVersion(secret.envelope),
        ciphertext: secret.envelope.toString('base64'),
        writer: { userId: secret.writerUserId, agentId: secret.writerAgentId },
      };
      bySource.set(secret.sourceId, [...(bySource.get(secret.sourceId) ?? []), backedUp]);
    }
    return bySource;
  }

  /**
   * The backed-up original ready to keep again, or a reason it cannot be: its envelope must be
   * this tenant's, sealed for this placeholder, with the data-key version it claims. Call before
   * the import's transaction (opening may read a data key on a connection of its own).
   */
  async restorable(secret: BackedUpSecret): Promise<SealedSecret | { refused: string }> {
    const envelope = Buffer.from(secret.ciphertext, 'base64');
    const tenantId = this.tenant.require('SecretBackup.restorable').id;
    try {
      if (envelopeKeyVersion(envelope) !== secret.keyVersion)
        return { refused: 'keyVersion does not match the envelope' };
      const opened = await this.encryption.decrypt(
        tenantId,
        { table: 'secrets', rowId: secret.id, field: 'value' },
        envelope,
      );
      opened.fill(0);
    } catch (error) {
      if (error instanceof EncryptionError) return { refused: 'not sealed by this tenant for this placeholder' };
      throw error;
    }
    return { placeholderId: secret.id, type: secret.type, ruleId: secret.ruleId, envelope };
  }
}
