import { createPublicKey, randomBytes, sign, verify } from 'node:crypto';
import { storedIdOf } from './oauth-adapter';
import { cookieKeyOf, signingKeyOf } from './oauth-keys';

describe('the authorization server keys, derived from the master key', () => {
  const master = randomBytes(32);

  it('are the same on every replica, and another master key gives other keys', () => {
    expect(signingKeyOf(Buffer.from(master))).toEqual(signingKeyOf(master));
    expect(cookieKeyOf(Buffer.from(master))).toBe(cookieKeyOf(master));
    const other = randomBytes(32);
    expect(signingKeyOf(other).kid).not.toBe(signingKeyOf(master).kid);
    expect(cookieKeyOf(other)).not.toBe(cookieKeyOf(master));
    // One label per use: the cookie key is not the signing key's scalar.
    expect(cookieKeyOf(master)).not.toBe(signingKeyOf(master).d);
  });

  it('give a working P-256 key pair whose public half carries no private part', () => {
    const jwk = signingKeyOf(master);
    expect(jwk).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    const data = Buffer.from('an id token');
    const signature = sign('sha256', data, { key: { ...jwk }, format: 'jwk' });
    const { d: _private, ...publicJwk } = jwk;
    expect(verify('sha256', data, createPublicKey({ key: publicJwk, format: 'jwk' }), signature)).toBe(true);
  });
});

describe('what oauth_records holds for a presented secret', () => {
  it('is the SHA-256 of a code, a token or a session cookie, and the id itself for the rest', () => {
    const token = 'a'.repeat(43);
    for (const kind of ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'Session', 'RegistrationAccessToken']) {
      expect(storedIdOf(kind, token)).toMatch(/^[0-9a-f]{64}$/);
      expect(storedIdOf(kind, token)).not.toContain(token);
    }
    for (const kind of ['Interaction', 'Grant', 'Client', 'ReplayDetection'])
      expect(storedIdOf(kind, token)).toBe(token);
  });
});
