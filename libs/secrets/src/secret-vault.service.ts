import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { EnvelopeEncryption } from '@cairn/encryption';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type RevealedSecret } from './contract/secret-redaction.types';
import { DataKeyRotation } from './data-key-rotation.service';
import { type StoredSecret, SecretsRepository } from './secrets.repository';

const PLACEHOLDER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The writer of that copy: the same user, the same agent, or the very token that wrote it. */
function wroteIt(principal: SessionPrincipal, secret: StoredSecret): boolean {
  if (principal.userId !== null && principal.userId === secret.writerUserId) return true;
  if (principal.agentId !== null && principal.agentId === secret.writerAgentId) return true;
  return principal.tokenId === secret.writerTokenId;
}

/**
 * `secret_get`: the original behind a placeholder, for its writer or a tenant admin. Everyone
 * else gets the same 404 as for an id that was never stored, so nobody learns whether it exists.
 * Copies sealed under an older data-key version are re-sealed under the current one on the way.
 */
@Injectable()
export class SecretVault {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly repository: SecretsRepository,
    private readonly encryption: EnvelopeEncryption,
    private readonly rotation: DataKeyRotation,
  ) {}

  async reveal(projectSlug: string, principal: SessionPrincipal, placeholderId: string): Promise<RevealedSecret> {
    assertProjectAccess(principal, projectSlug);
    if (!PLACEHOLDER_ID.test(placeholderId)) throw new NotFoundError('Secret');
    const copies = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      return this.repository.findByPlaceholder(placeholderId, project.id);
    });
    const copy =
      copies.find((secret) => wroteIt(principal, secret)) ?? (principal.role === 'admin' ? copies[0] : undefined);
    if (!copy) throw new NotFoundError('Secret');
    const value = await this.encryption.decryptText(
      principal.tenant.id,
      { table: 'secrets', rowId: copy.placeholderId, field: 'value' },
      copy.envelope,
    );
    // Lazy re-encryption after a data-key rotation: the copies just read move to the current key.
    await this.rotation.resealAfterRead(copies);
    return {
      id: copy.placeholderId,
      type: copy.type,
      value,
      sourceTable: copy.sourceTable,
      sourceId: copy.sourceId,
      createdAt: copy.createdAt,
    };
  }
}
