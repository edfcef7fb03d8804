import { randomBytes, randomUUID } from 'node:crypto';
import { EncryptionError } from './encryption-error';
import { MasterKeyring, masterKeyId, newDataKey, WRAPPED_KEY_BYTES } from './master-keyring';

const masterA = randomBytes(32);
const masterB = randomBytes(32);
const tenant = randomUUID();

function errorOf(action: () => unknown): EncryptionError {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(EncryptionError);
    return error as EncryptionError;
  }
  throw new Error('expected an EncryptionError');
}

/** Every spelling of a key someone could paste into a message. */
const spellings = (key: Buffer) => [key.toString('base64'), key.toString('hex'), key.toString('base64url')];

describe('the master keyring', () => {
  it('wraps a data key for one tenant and version, and unwraps it', () => {
    const dataKey = newDataKey();
    const wrapped = new MasterKeyring(masterA).wrap(tenant, 3, dataKey);
    expect(wrapped).toMatchObject({ tenantId: tenant, version: 3, masterKeyId: masterKeyId(masterA) });
    expect(wrapped.wrappedKey).toHaveLength(WRAPPED_KEY_BYTES);
    expect(wrapped.wrappedKey.includes(dataKey)).toBe(false);
    expect(new MasterKeyring(masterA).unwrap(wrapped).equals(dataKey)).toBe(true);
  });

  it('names a master key by a stable fingerprint that reveals nothing of it', () => {
    expect(masterKeyId(masterA)).toMatch(/^mk_[0-9a-f]{16}$/);
    expect(masterKeyId(Buffer.from(masterA))).toBe(masterKeyId(masterA));
    expect(masterKeyId(masterB)).not.toBe(masterKeyId(masterA));
    expect(masterA.toString('hex')).not.toContain(masterKeyId(masterA).slice(3));
  });

  it('unwraps with the previous master key during a rotation, chosen by fingerprint', () => {
    const dataKey = newDataKey();
    const underA = new MasterKeyring(masterA).wrap(tenant, 1, dataKey);
    const rotating = new MasterKeyring(masterB, masterA);
    expect(rotating.unwrap(underA).equals(dataKey)).toBe(true);
    expect(rotating.wrap(tenant, 1, dataKey).masterKeyId).toBe(masterKeyId(masterB));
  });

  it('does not unwrap a key moved to another tenant or version', () => {
    const wrapped = new MasterKeyring(masterA).wrap(tenant, 1, newDataKey());
    const keyring = new MasterKeyring(masterA);
    expect(errorOf(() => keyring.unwrap({ ...wrapped, tenantId: randomUUID() })).code).toBe('data_key_corrupt');
    expect(errorOf(() => keyring.unwrap({ ...wrapped, version: 2 })).code).toBe('data_key_corrupt');
    const flipped = Buffer.from(wrapped.wrappedKey);
    flipped[40] ^= 0x80;
    expect(errorOf(() => keyring.unwrap({ ...wrapped, wrappedKey: flipped })).code).toBe('data_key_corrupt');
  });

  it('says which master key is missing, by fingerprint, and never prints a key', () => {
    const dataKey = newDataKey();
    const wrapped = new MasterKeyring(masterA).wrap(tenant, 1, dataKey);
    const error = errorOf(() => new MasterKeyring(masterB).unwrap(wrapped));
    expect(error.code).toBe('master_key_unavailable');
    expect(error.message).toContain(masterKeyId(masterA));
    expect(error.message).toContain(masterKeyId(masterB));
    expect(error.message).toContain('CAIRN_MASTER_KEY_PREVIOUS (unset)');
    for (const secret of [...spellings(masterA), ...spellings(masterB), ...spellings(dataKey)]) {
      expect(error.message).not.toContain(secret);
    }
  });

  it('refuses to wrap without CAIRN_MASTER_KEY, naming the variable', () => {
    const error = errorOf(() => new MasterKeyring(undefined).wrap(tenant, 1, newDataKey()));
    expect(error.message).toContain('CAIRN_MASTER_KEY is not set');
  });
});
