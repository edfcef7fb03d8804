import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';
import { type AuditOutcome } from './platform-audit.repository';

/** What the previous-hash of a tenant's first audit entry is. */
export const GENESIS_HASH = Buffer.alloc(32);

/** The fields an audit entry's hash covers, exactly as they are stored. */
export interface ChainedAuditFields {
  readonly at: Date;
  readonly actor: string;
  readonly action: string;
  readonly target: string | null;
  readonly outcome: AuditOutcome;
  readonly status: number | null;
  readonly requestId: string | null;
  readonly details: Record<string, unknown> | null;
}

/**
 * SHA-256 over the previous entry's hash and the entry's fields in RFC 8785 canonical JSON
 * (the form jsonb gives back the same, whatever the key order it was written in).
 */
export function chainHash(previous: Buffer, entry: ChainedAuditFields): Buffer {
  return canonicalChainHash(previous, {
    at: entry.at.toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    status: entry.status,
    requestId: entry.requestId,
    details: entry.details,
  });
}

/**
 * The link of any hash chain (the tenant audit log, a project's broadcast channel): SHA-256 over
 * the previous link's hash and the entry's fields in RFC 8785 canonical JSON. `fields` holds plain
 * JSON values only (dates as ISO strings), exactly as they read back from the database.
 */
export function canonicalChainHash(previous: Buffer, fields: Readonly<Record<string, unknown>>): Buffer {
  return createHash('sha256').update(previous).update(canonicalize(fields), 'utf8').digest();
}

/** Why a stored link breaks the chain, in the words `verify` reports; null when it holds. */
export function chainLinkProblem(
  previous: Buffer,
  link: { readonly prevHash: Buffer; readonly hash: Buffer },
  recomputed: () => Buffer,
): string | null {
  if (!link.prevHash.equals(previous)) return 'does not follow the entry before it (an entry was removed or reordered)';
  if (!recomputed().equals(link.hash)) return 'its fields do not match its hash (the entry was altered)';
  return null;
}

/** Details as they will read back from jsonb: undefined members gone, plain JSON values only. */
export function storedDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | null {
  return details === undefined ? null : (JSON.parse(JSON.stringify(details)) as Record<string, unknown>);
}
