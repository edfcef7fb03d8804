import { ChannelKeyHasher, SCRYPT_PARAMS } from './channel-key-hasher.service';
import { type BroadcastsRepository, type StoredKey } from './broadcasts.repository';
import { ChannelKeys } from './channel-keys.service';

/** The key check alone: real scrypt, no database (check and known never touch one). */
describe('ChannelKeys.check', () => {
  const hasher = new ChannelKeyHasher();
  const key = 'correct horse battery staple';
  let stored: StoredKey;
  let keys: ChannelKeys;
  let derive: jest.SpyInstance;

  beforeAll(async () => {
    const salt = hasher.newSalt();
    stored = { hash: await hasher.derive(key, salt), salt, params: { ...SCRYPT_PARAMS }, setAt: new Date() };
  });
  beforeEach(() => {
    keys = new ChannelKeys(null as never, null as never, null as unknown as BroadcastsRepository, hasher);
    derive = jest.spyOn(hasher, 'derive');
  });
  afterEach(() => derive.mockRestore());

  const refusal = (presented: string | undefined) =>
    keys.check('p1', stored, presented).then(
      () => 'accepted',
      (e: Error) => e.message,
    );

  it('accepts the key, refuses anything else with one message, and lets a keyless channel be', async () => {
    expect(await refusal(key)).toBe('accepted');
    const messages = new Set([await refusal(undefined), await refusal('x'.repeat(key.length)), await refusal('no')]);
    expect(messages.size).toBe(1);
    await expect(keys.check('p1', null, undefined)).resolves.toBeUndefined();
  });

  it('derives once per distinct presented key, right or wrong, while the verdict lasts', async () => {
    await Promise.all([refusal('wrong but sixteen+'), refusal('wrong but sixteen+'), refusal(key), refusal(key)]);
    expect(derive).toHaveBeenCalledTimes(2);
    expect(keys.known('p1', stored, key)).toBe(true);
    expect(() => keys.known('p1', stored, 'wrong but sixteen+')).toThrow();
    expect(keys.known('p1', stored, 'never presented yet')).toBe('unknown');
    // The same key on another project, or against another stored hash, is a new question.
    expect(keys.known('p2', stored, key)).toBe('unknown');
    expect(keys.known('p1', { ...stored, hash: Buffer.alloc(64, 1) }, key)).toBe('unknown');
  });

  it('refuses parameters it did not write rather than deriving with them', async () => {
    const tampered = { ...stored, params: { ...SCRYPT_PARAMS, N: 2 ** 24 } };
    expect(
      await keys.check('p1', tampered, key).then(
        () => 'accepted',
        () => 'refused',
      ),
    ).toBe('refused');
  });
});
