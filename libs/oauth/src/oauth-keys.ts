import { createECDH, createHash, hkdfSync } from 'node:crypto';

/** A private signing key in JWK form, as oidc-provider's `jwks` takes it. */
export interface SigningJwk {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly x: string;
  readonly y: string;
  readonly d: string;
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}

function derive(masterKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), purpose, 32));
}

/**
 * The authorization server's keys come from the master key (HKDF, one label per use), so every
 * replica has the same ones with no other secret to distribute, and rotating the master key
 * rotates them: the previous key's are kept for verification while both are configured.
 *
 * Its signing key (ES256) signs only what oidc-provider signs itself (ID tokens when a client
 * asks for `openid`); the access tokens for the gateway are opaque and looked up.
 */
export function signingKeyOf(masterKey: Buffer): SigningJwk {
  const ecdh = createECDH('prime256v1');
  // A 32-byte HKDF output is a valid P-256 scalar but for a ~2^-128 chance; setPrivateKey refuses it then.
  const d = derive(masterKey, 'cairn:oauth:signing:v1');
  ecdh.setPrivateKey(d);
  const publicKey = ecdh.getPublicKey(); // 0x04 || x || y
  const x = publicKey.subarray(1, 33).toString('base64url');
  const y = publicKey.subarray(33, 65).toString('base64url');
  // RFC 7638 thumbprint as the key id: stable, and names the key, not the master key.
  const kid = createHash('sha256')
    .update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y }))
    .digest('base64url');
  return { kty: 'EC', crv: 'P-256', x, y, d: d.toString('base64url'), kid, alg: 'ES256', use: 'sig' };
}

/** Keys oidc-provider signs its cookies with (the first signs, all verify). */
export function cookieKeyOf(masterKey: Buffer): string {
  return derive(masterKey, 'cairn:oauth:cookies:v1').toString('base64url');
}
