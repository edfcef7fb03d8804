import { type SessionPrincipal } from '@cairn/access';
import { assertMayWriteScope, assertMayWriteTenantWide } from './memory-access';
import { type IdempotencyClaim, payloadDigest } from './idempotency-keys.repository';
import { type MemoryScopeLevel } from './contract/memory.types';
import { type StoreMemoryInput } from './contract/memory-write.types';

/** What a store asks for, decided from its input and the principal alone (no reads). */
export interface StoreIntent {
  /** With an idempotency key: the key and the digest a repeat must match. */
  readonly claim?: IdempotencyClaim;
  /** The scope the store names (`tenant` is `team` without a project); absent: the default one. */
  readonly named?: MemoryScopeLevel;
  /** `scope: 'tenant'`: a team memory without a project. */
  readonly tenantWide: boolean;
  /** The content is sealed whole, neither scanned nor stored, searched or embedded. */
  readonly sensitive: boolean;
}

/**
 * The refusals a store meets before any work (a named scope the principal may not write, a
 * tenant-wide memory without the right), and the idempotency claim: the digest is of the
 * validated input (defaults applied), so REST and MCP repeats compare alike. A default scope
 * (project, or private for agents when the tenant says so) is never refused.
 */
export function storeIntent(
  projectSlug: string,
  principal: SessionPrincipal,
  input: StoreMemoryInput,
  idempotencyKey?: string,
): StoreIntent {
  const claim = idempotencyKey
    ? { key: idempotencyKey, digest: payloadDigest(JSON.parse(JSON.stringify({ projectSlug, ...input }))) }
    : undefined;
  if (input.scope === 'tenant') assertMayWriteTenantWide(principal);
  const named = input.scope === 'tenant' ? 'team' : input.scope;
  if (named) assertMayWriteScope(principal, named);
  return { claim, named, tenantWide: input.scope === 'tenant', sensitive: input.sensitive === true };
}
