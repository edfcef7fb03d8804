/**
 * What a caller of @cairn/encryption names when it seals a value: the place the value belongs to.
 * The binding is authenticated with the ciphertext (GCM additional data), so an envelope copied to
 * another tenant, table, row or field does not decrypt.
 */
export interface FieldBinding {
  /** The table the value is stored in, e.g. `memories` (lower-case SQL identifier). */
  readonly table: string;
  /** The row's id as text, e.g. the memory's uuid. */
  readonly rowId: string;
  /** The column or logical field, e.g. `content` or `secret:3f2a…` (lower-case identifier). */
  readonly field: string;
}

/**
 * The scope id of values sealed for the installation rather than for a tenant (a
 * platform-operator account's TOTP secret): pass it where a tenant id goes. Its data keys are the
 * platform's own (`cairn.platform_data_keys`), made on first use, rotated and re-wrapped like a
 * tenant's. No tenant has this id: tenant ids are random (version 4) uuids.
 */
export const PLATFORM_SCOPE = '00000000-0000-0000-0000-000000000000';

/** Why encryption or decryption refused; stable, for callers and tests. Messages never carry key material. */
export type EncryptionErrorCode =
  /** The binding or tenant id is not well formed (a programming error). */
  | 'invalid_binding'
  /** The bytes are not an envelope of a known format. */
  | 'malformed_envelope'
  /** The envelope did not authenticate: altered, or bound to another tenant, table, row or field. */
  | 'decryption_failed'
  /** The envelope names a data-key version the tenant does not have. */
  | 'unknown_data_key'
  /** The tenant does not exist (or is deleted), so no data key is created for it. */
  | 'unknown_tenant'
  /** A data key is wrapped by a master key this process was not given (CAIRN_MASTER_KEY / _PREVIOUS). */
  | 'master_key_unavailable'
  /** A stored data key did not unwrap under the master key it names: corrupt or tampered with. */
  | 'data_key_corrupt';

/** What `npm run keys:rotate` did to one set of data keys (a tenant's, or the platform's). */
export interface KeyRotationOutcome {
  /** Data-key versions the set has. */
  readonly keys: number;
  /** Versions re-wrapped under the current master key by this run. */
  readonly rewrapped: number;
  /** Versions already wrapped by the current master key before this run reached them. */
  readonly alreadyCurrent: number;
  readonly status: 'rotated' | 'up-to-date' | 'failed';
  /** Why it failed (names fingerprints and versions, never keys). */
  readonly error?: string;
  readonly durationMs: number;
}

/** One tenant's outcome in `npm run keys:rotate`. */
export interface TenantRotationReport extends KeyRotationOutcome {
  readonly tenantId: string;
  /** The tenant's slug; a deleted tenant keeps its keys until its rows are purged. */
  readonly slug: string;
  readonly deleted: boolean;
}

export interface MasterKeyRotationReport {
  /** Fingerprint of CAIRN_MASTER_KEY, the key every data key is wrapped by after the run. */
  readonly masterKeyId: string;
  /** Fingerprint of CAIRN_MASTER_KEY_PREVIOUS, or null when it was not given. */
  readonly previousMasterKeyId: string | null;
  readonly tenants: readonly TenantRotationReport[];
  /** The platform's own data keys (PLATFORM_SCOPE); null when it has none yet. */
  readonly platform: KeyRotationOutcome | null;
  /** Data keys re-wrapped by this run, the platform's included. */
  readonly rewrapped: number;
  /** Tenants (and the platform's keys) that failed. */
  readonly failed: number;
  /** Data keys still wrapped by another master key when the run ended (0 once the rotation is complete). */
  readonly remaining: number;
}

/** Progress of a rotation run, as `npm run keys:rotate` prints it. */
export interface RotationListener {
  /** Another rotation holds the lock; this one waits for it. */
  waiting(): void;
  tenantDone(report: TenantRotationReport): void;
  /** The platform's own keys are done (after the tenants'; not called when it has none). */
  platformDone?(report: KeyRotationOutcome): void;
}
