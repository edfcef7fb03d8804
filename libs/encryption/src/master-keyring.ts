import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { PLATFORM_SCOPE } from './contract/encryption.types';
import { EncryptionError } from './encryption-error';
import { lengthPrefixed } from './envelope-format';

export const DATA_KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** nonce ‖ tag ‖ wrapped key: the layout of `cairn.tenant_data_keys.wrapped_key`. */
export const WRAPPED_KEY_BYTES = NONCE_BYTES + TAG_BYTES + DATA_KEY_BYTES;

/** A data key as stored: wrapped, with the version it has and the master key that wrapped it. */
export interface WrappedDataKey {
  readonly tenantId: string;
  readonly version: number;
  readonly wrappedKey: Buffer;
  readonly masterKeyId: string;
}

interface MasterKey {
  readonly id: string;
  /** The key-encryption key derived from the master key; the master key itself encrypts nothing. */
  readonly kek: Buffer;
  readonly variable: 'CAIRN_MASTER_KEY' | 'CAIRN_MASTER_KEY_PREVIOUS';
}

function derive(master: Buffer, info: string, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, length));
}

/**
 * The public name of a master key: `mk_` and 64 bits of an HKDF output. It tells keys apart in the
 * control schema and in messages, and reveals nothing of the key.
 */
export function masterKeyId(master: Buffer): string {
  return `mk_${derive(master, 'cairn:master-key:id:v1', 8).toString('hex')}`;
}

function wrapAad(tenantId: string, version: number): Buffer {
  return lengthPrefixed(['cairn:data-key:v1', tenantId.toLowerCase(), String(version)]);
}

/**
 * The master keys this process holds: the current one wraps, and either unwraps, chosen by the
 * fingerprint a stored data key names. Wrapping is AES-256-GCM with its own random nonce and the
 * tenant id and key version as additional data, so a wrapped key moved to another tenant or
 * version does not unwrap.
 */
export class MasterKeyring {
  private readonly current: MasterKey | undefined;
  private readonly previous: MasterKey | undefined;

  constructor(current: Buffer | undefined, previous?: Buffer) {
    const make = (key: Buffer, variable: MasterKey['variable']): MasterKey => ({
      id: masterKeyId(key),
      kek: derive(key, 'cairn:master-key:wrap:v1', 32),
      variable,
    });
    this.current = current ? make(current, 'CAIRN_MASTER_KEY') : undefined;
    this.previous = previous ? make(previous, 'CAIRN_MASTER_KEY_PREVIOUS') : undefined;
  }

  /** Fingerprint of CAIRN_MASTER_KEY; throws when the process was started without one. */
  get currentId(): string {
    return this.requireCurrent().id;
  }

  get previousId(): string | null {
    return this.previous?.id ?? null;
  }

  wrap(tenantId: string, version: number, dataKey: Buffer): WrappedDataKey {
    const master = this.requireCurrent();
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', master.kek, nonce, { authTagLength: TAG_BYTES });
    cipher.setAAD(wrapAad(tenantId, version));
    const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
    return {
      tenantId,
      version,
      wrappedKey: Buffer.concat([nonce, cipher.getAuthTag(), wrapped]),
      masterKeyId: master.id,
    };
  }

  /** The plain data key; the caller owns the buffer and wipes it when done. */
  unwrap(stored: WrappedDataKey): Buffer {
    const master = [this.current, this.previous].find((key) => key?.id === stored.masterKeyId);
    const owner = stored.tenantId === PLATFORM_SCOPE ? 'the platform' : `tenant ${stored.tenantId}`;
    const what = `${owner}'s data key v${stored.version}`;
    if (!master) {
      throw new EncryptionError(
        'master_key_unavailable',
        `${what} is wrapped by master key ${stored.masterKeyId}, which is neither CAIRN_MASTER_KEY ` +
          `(${this.current?.id ?? 'unset'}) nor CAIRN_MASTER_KEY_PREVIOUS (${this.previous?.id ?? 'unset'}): ` +
          'start with the master key that wrapped it, or finish the rotation with npm run keys:rotate',
      );
    }
    if (stored.wrappedKey.length !== WRAPPED_KEY_BYTES) {
      throw new EncryptionError(
        'data_key_corrupt',
        `${what} has a wrapped length of ${stored.wrappedKey.length} bytes`,
      );
    }
    const decipher = createDecipheriv('aes-256-gcm', master.kek, stored.wrappedKey.subarray(0, NONCE_BYTES), {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(wrapAad(stored.tenantId, stored.version));
    decipher.setAuthTag(stored.wrappedKey.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    const body = decipher.update(stored.wrappedKey.subarray(NONCE_BYTES + TAG_BYTES));
    try {
      decipher.final();
      return body;
    } catch {
      body.fill(0);
      throw new EncryptionError(
        'data_key_corrupt',
        `${what} does not unwrap under ${master.variable} (${master.id}), the master key it names: ` +
          'the stored key was altered',
      );
    }
  }

  private requireCurrent(): MasterKey {
    if (!this.current) {
      throw new EncryptionError('master_key_unavailable', 'CAIRN_MASTER_KEY is not set: envelope encryption is off');
    }
    return this.current;
  }
}

/** A fresh random data key; the caller wipes it once wrapped. */
export function newDataKey(): Buffer {
  return randomBytes(DATA_KEY_BYTES);
}
