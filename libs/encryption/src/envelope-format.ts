import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { type FieldBinding } from './contract/encryption.types';
import { EncryptionError } from './encryption-error';

/**
 * The envelope: a compact, self-describing AES-256-GCM ciphertext.
 *
 *   byte 0       format (1)
 *   bytes 1-2    data-key version, unsigned big-endian
 *   bytes 3-14   nonce (96 bits, random per envelope)
 *   bytes 15-30  GCM tag (128 bits)
 *   bytes 31-    ciphertext (as long as the plaintext)
 *
 * The additional data is the header (format and key version) followed by the tenant id, table,
 * row id and field, each length-prefixed: no separator can be smuggled into a part to make two
 * different bindings encode alike, and editing the header fails authentication.
 */
export const ENVELOPE_FORMAT = 1;
export const MAX_KEY_VERSION = 0xffff;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const HEADER_BYTES = 3;
const BODY_OFFSET = HEADER_BYTES + NONCE_BYTES + TAG_BYTES;
const AAD_DOMAIN = 'cairn:envelope:v1';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IDENTIFIER = /^[a-z][a-z0-9_:.-]{0,62}$/;
// Row ids are ids (uuids, numbers, slugs): printable, bounded; control characters never.
const ROW_ID = /^[\x21-\x7e]{1,256}$/;

export interface ParsedEnvelope {
  readonly format: number;
  readonly keyVersion: number;
  readonly header: Buffer;
  readonly nonce: Buffer;
  readonly tag: Buffer;
  readonly ciphertext: Buffer;
}

/** A tenant id and binding, checked and in canonical form (lower-case tenant id). */
export interface CheckedBinding extends FieldBinding {
  readonly tenantId: string;
}

/** The tenant id in canonical (lower-case) form; throws `invalid_binding` unless it is a uuid. */
export function checkTenantId(tenantId: string): string {
  if (typeof tenantId !== 'string' || !UUID.test(tenantId)) {
    throw new EncryptionError('invalid_binding', 'the tenant id must be a uuid');
  }
  return tenantId.toLowerCase();
}

export function checkBinding(tenantId: string, binding: FieldBinding): CheckedBinding {
  const tenant = checkTenantId(tenantId);
  const { table, rowId, field } = binding ?? ({} as FieldBinding);
  if (typeof table !== 'string' || !IDENTIFIER.test(table)) {
    throw new EncryptionError('invalid_binding', 'the table must be a lower-case identifier of at most 63 characters');
  }
  if (typeof field !== 'string' || !IDENTIFIER.test(field)) {
    throw new EncryptionError('invalid_binding', 'the field must be a lower-case identifier of at most 63 characters');
  }
  if (typeof rowId !== 'string' || !ROW_ID.test(rowId)) {
    throw new EncryptionError('invalid_binding', 'the row id must be 1-256 printable characters without spaces');
  }
  return { tenantId: tenant, table, rowId, field };
}

/** Length-prefixed (uint32 big-endian) UTF-8 parts. */
export function lengthPrefixed(parts: readonly (string | Buffer)[]): Buffer {
  return Buffer.concat(
    parts.flatMap((part) => {
      const bytes = typeof part === 'string' ? Buffer.from(part, 'utf8') : part;
      const length = Buffer.alloc(4);
      length.writeUInt32BE(bytes.length);
      return [length, bytes];
    }),
  );
}

function additionalData(header: Buffer, binding: CheckedBinding): Buffer {
  return lengthPrefixed([AAD_DOMAIN, header, binding.tenantId, binding.table, binding.rowId, binding.field]);
}

function headerFor(keyVersion: number): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeUInt8(ENVELOPE_FORMAT, 0);
  header.writeUInt16BE(keyVersion, 1);
  return header;
}

/** Encrypts under `dataKey` (32 bytes) with a fresh random nonce. */
export function sealEnvelope(dataKey: Buffer, keyVersion: number, binding: CheckedBinding, plaintext: Buffer): Buffer {
  const header = headerFor(keyVersion);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', dataKey, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(additionalData(header, binding));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([header, nonce, cipher.getAuthTag(), ciphertext]);
}

/** Reads the header; throws `malformed_envelope` for anything that is not a format-1 envelope. */
export function parseEnvelope(envelope: Buffer): ParsedEnvelope {
  if (!Buffer.isBuffer(envelope) || envelope.length < BODY_OFFSET) {
    throw new EncryptionError('malformed_envelope', 'not an envelope: too short');
  }
  const format = envelope.readUInt8(0);
  if (format !== ENVELOPE_FORMAT) {
    throw new EncryptionError('malformed_envelope', `not an envelope: unknown format ${format}`);
  }
  const keyVersion = envelope.readUInt16BE(1);
  if (keyVersion < 1) throw new EncryptionError('malformed_envelope', 'not an envelope: data-key version 0');
  return {
    format,
    keyVersion,
    header: envelope.subarray(0, HEADER_BYTES),
    nonce: envelope.subarray(HEADER_BYTES, HEADER_BYTES + NONCE_BYTES),
    tag: envelope.subarray(HEADER_BYTES + NONCE_BYTES, BODY_OFFSET),
    ciphertext: envelope.subarray(BODY_OFFSET),
  };
}

/** The data-key version an envelope was sealed with (backups carry it beside the ciphertext). */
export function envelopeKeyVersion(envelope: Buffer): number {
  return parseEnvelope(envelope).keyVersion;
}

/** Decrypts and authenticates; throws `decryption_failed` when the envelope or its binding does not match. */
export function openEnvelope(dataKey: Buffer, envelope: ParsedEnvelope, binding: CheckedBinding): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', dataKey, envelope.nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(additionalData(envelope.header, binding));
  decipher.setAuthTag(envelope.tag);
  // GCM hands out plaintext before the tag is checked: wipe it if the check then fails.
  const body = decipher.update(envelope.ciphertext);
  try {
    return Buffer.concat([body, decipher.final()]);
  } catch {
    body.fill(0);
    // OpenSSL's own message says nothing useful ("Unsupported state or unable to authenticate data").
    throw new EncryptionError(
      'decryption_failed',
      `cannot decrypt ${binding.table}.${binding.field} of row ${binding.rowId} (tenant ${binding.tenantId}, ` +
        `data key v${envelope.keyVersion}): the envelope was altered or belongs to another tenant, row or field`,
    );
  }
}
