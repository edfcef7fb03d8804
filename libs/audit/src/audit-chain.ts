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
  const body = canonicalize({
    at: entry.at.toISOString(),
    actor: entry.actor,
    action: entry.action,
    target: entry.target,
    outcome: entry.outcome,
    status: entry.status,
    requestId: entry.requestId,
    details: entry.details,
  });
  return createHash('sha256').update(previous).update(body, 'utf8').digest();
}

/** Details as they will read back from jsonb: undefined members gone, plain JSON values only. */
export function storedDetails(details: Record<string, unknown> | undefined): Record<string, unknown> | null {
  return details === undefined ? null : (JSON.parse(JSON.stringify(details)) as Record<string, unknown>);
}
