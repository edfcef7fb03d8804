import { randomBytes, randomUUID } from 'node:crypto';
import { EncryptionError } from './encryption-error';
import { checkBinding, openEnvelope, parseEnvelope, sealEnvelope } from './envelope-format';

const tenant = randomUUID();
const key = randomBytes(32);
const place = checkBinding(tenant, { table: 'memories', rowId: randomUUID(), field: 'content' });

function codeOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(EncryptionError);
    return (error as EncryptionError).code;
  }
  throw new Error('expected an EncryptionError');
}

describe('the envelope format', () => {
  it('round-trips, with a fresh nonce each time and the key version in the header', () => {
    const plaintext = Buffer.from('postgres://app:hunter2@db/prod', 'utf8');
    const first = sealEnvelope(key, 7, place, plaintext);
    const second = sealEnvelope(key, 7, place, plaintext);
    expect(first.equals(second)).toBe(false);
    expect(first).toHaveLength(31 + plaintext.length);
    expect(parseEnvelope(first)).toMatchObject({ format: 1, keyVersion: 7 });
    expect(openEnvelope(key, parseEnvelope(first), place).toString('utf8')).toBe(plaintext.toString('utf8'));
    expect(first.includes(plaintext)).toBe(false);
  });

  it('seals an empty value', () => {
    const envelope = sealEnvelope(key, 1, place, Buffer.alloc(0));
    expect(openEnvelope(key, parseEnvelope(envelope), place)).toHaveLength(0);
  });

  it('fails on any flipped bit: header, nonce, tag or ciphertext', () => {
    const envelope = sealEnvelope(key, 1, place, Buffer.from('a secret value'));
    for (let byte = 0; byte < envelope.length; byte += 1) {
      const altered = Buffer.from(envelope);
      altered[byte] ^= 0x01;
      // The format byte and version are read first (malformed / another key); the rest fails authentication.
      const code = codeOf(() => openEnvelope(key, parseEnvelope(altered), place));
      expect(['decryption_failed', 'malformed_envelope']).toContain(code);
      if (byte >= 3) expect(code).toBe('decryption_failed');
    }
  });

  it('fails under another binding, even one whose parts concatenate alike', () => {
    const bound = checkBinding(tenant, { table: 'memories', rowId: 'a:b', field: 'c' });
    const envelope = parseEnvelope(sealEnvelope(key, 1, bound, Buffer.from('x')));
    for (const other of [
      { table: 'memories', rowId: 'a', field: 'b:c' },
      { table: 'memories', rowId: 'a:c', field: 'c' },
      { table: 'memories', rowId: 'a:b', field: 'd' },
      { table: 'kb_chunks', rowId: 'a:b', field: 'c' },
    ]) {
      expect(codeOf(() => openEnvelope(key, envelope, checkBinding(tenant, other)))).toBe('decryption_failed');
    }
    const otherTenant = checkBinding(randomUUID(), { table: 'memories', rowId: 'a:b', field: 'c' });
    expect(codeOf(() => openEnvelope(key, envelope, otherTenant))).toBe('decryption_failed');
    expect(codeOf(() => openEnvelope(randomBytes(32), envelope, bound))).toBe('decryption_failed');
  });

  it('treats tenant ids case-insensitively, as PostgreSQL does', () => {
    const envelope = sealEnvelope(key, 1, checkBinding(tenant.toUpperCase(), place), Buffer.from('x'));
    expect(openEnvelope(key, parseEnvelope(envelope), place).toString()).toBe('x');
  });

  it('refuses what is not an envelope', () => {
    expect(codeOf(() => parseEnvelope(Buffer.alloc(10)))).toBe('malformed_envelope');
    expect(codeOf(() => parseEnvelope(Buffer.from('plain text stored by mistake, long enough')))).toBe(
      'malformed_envelope',
    );
    expect(codeOf(() => parseEnvelope(Buffer.concat([Buffer.from([1, 0, 0]), randomBytes(40)])))).toBe(
      'malformed_envelope',
    );
    expect(codeOf(() => parseEnvelope('not a buffer' as unknown as Buffer))).toBe('malformed_envelope');
  });

  it.each([
    ['a tenant id that is not a uuid', 'tenant-a', { table: 'memories', rowId: '1', field: 'content' }],
    ['an upper-case table', tenant, { table: 'Memories', rowId: '1', field: 'content' }],
    ['an empty row id', tenant, { table: 'memories', rowId: '', field: 'content' }],
    ['a row id with a newline', tenant, { table: 'memories', rowId: 'a\nb', field: 'content' }],
    ['a field with a space', tenant, { table: 'memories', rowId: '1', field: 'con tent' }],
    ['a missing field', tenant, { table: 'memories', rowId: '1' }],
  ])('refuses %s', (_what, tenantId, binding) => {
    expect(codeOf(() => checkBinding(tenantId, binding as never))).toBe('invalid_binding');
  });
});
