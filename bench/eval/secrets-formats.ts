import { createHmac } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { ALNUM, type SeededRandom } from './secrets-corpus';

/**
 * Synthetic secrets in their providers' real formats, checksums included where the format has
 * one, so a rule that checked them would accept these. None is, or was ever, a live credential.
 */

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(value: number, width: number): string {
  let out = '';
  let rest = value >>> 0;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/**
 * GitHub's token format (ghp_, gho_, ghs_, ghu_, ghr_), which npm's tokens (npm_) share:
 * 30 random base62 characters and the CRC32 of them in 6 base62 characters.
 */
export function checksummedToken(random: SeededRandom, prefix: string): string {
  const body = random.chars(30, ALNUM);
  return `${prefix}${body}${base62(crc32(body), 6)}`;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: readonly number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    generators.forEach((generator, i) => {
      if ((top >>> i) & 1) checksum ^= generator;
    });
  }
  return checksum >>> 0;
}

/** BIP-173 bech32 of `data` under `hrp`, as age writes its secret keys (then upper-cased). */
export function bech32(hrp: string, data: Buffer): string {
  const words: number[] = [];
  let accumulator = 0;
  let bits = 0;
  for (const byte of data) {
    accumulator = (accumulator << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((accumulator >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((accumulator << (5 - bits)) & 31);
  const expanded = [...hrp].map((c) => c.charCodeAt(0) >>> 5);
  expanded.push(0, ...[...hrp].map((c) => c.charCodeAt(0) & 31));
  const polymod = bech32Polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (polymod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${[...words, ...checksum].map((word) => BECH32[word]).join('')}`;
}

const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

/** An HS256 JWT with a real signature under a random key. */
export function jwt(random: SeededRandom): string {
  const header = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const now = 1_760_000_000 + random.int(0, 10_000_000);
  const payload = b64url(
    JSON.stringify({
      sub: `user-${random.int(1000, 99999)}`,
      tenant: random.pick(['acme', 'globex', 'initech', 'umbrella']),
      scope: random.pick(['memory:write', 'admin', 'read write']),
      iat: now,
      exp: now + 3600,
    }),
  );
  const signature = createHmac('sha256', random.bytes(32)).update(`${header}.${payload}`).digest('base64url');
  return `${header}.${payload}.${signature}`;
}

function pem(label: string, der: Buffer, width = 64): string {
  const body = der.toString('base64').match(new RegExp(`.{1,${width}}`, 'g')) ?? [];
  return [`-----BEGIN ${label}-----`, ...body, `-----END ${label}-----`].join('\n');
}

/** A private key in PEM: Ed25519 PKCS#8 (parseable as is), or RSA, EC and OpenSSH shapes. */
export function privateKey(random: SeededRandom): string {
  const kind = random.pick(['ed25519', 'rsa', 'ec', 'openssh'] as const);
  if (kind === 'ed25519') {
    return pem(
      'PRIVATE KEY',
      Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), random.bytes(32)]),
    );
  }
  if (kind === 'rsa') {
    return pem('RSA PRIVATE KEY', Buffer.concat([Buffer.from('308204a40201000282010100', 'hex'), random.bytes(1180)]));
  }
  if (kind === 'ec') {
    const der = Buffer.concat([
      Buffer.from('30770201010420', 'hex'),
      random.bytes(32),
      Buffer.from('a00a06082a8648ce3d030107a14403420004', 'hex'),
      random.bytes(64),
    ]);
    return pem('EC PRIVATE KEY', der);
  }
  const ssh = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    Buffer.from('000000046e6f6e65000000046e6f6e650000000000000001', 'hex'),
    random.bytes(random.int(300, 380)),
  ]);
  return pem('OPENSSH PRIVATE KEY', ssh, 70);
}

/** A connection string with a password, and the password as it appears in the text. */
export function connectionString(random: SeededRandom): { text: string; secret: string } {
  const passwordKind = random.pick(['random', 'random', 'words', 'symbols'] as const);
  const raw =
    passwordKind === 'random'
      ? random.chars(random.int(14, 28), ALNUM)
      : passwordKind === 'words'
        ? `${random.pick(['Harbor', 'Maple', 'Quartz', 'Tiger', 'Velvet'])}${random.pick(['Lamp', 'River', 'Storm', 'Falcon'])}${random.int(10, 99)}`
        : `${random.chars(8, ALNUM)}${random.pick(['!', '#', '@', '%', '&', '/'])}${random.chars(6, ALNUM)}`;
  const password = encodeURIComponent(raw);
  const user = random.pick(['app', 'cairn', 'svc_reporting', 'admin', 'etl', 'readonly']);
  const host = random.pick(['db.internal', 'pg-staging.acme.io', '10.0.3.14', 'prod-db-1', 'localhost']);
  const shapes = [
    `postgres://${user}:${password}@${host}:5432/app`,
    `postgresql://${user}:${password}@${host}/analytics?sslmode=require`,
    `mysql://${user}:${password}@${host}:3306/shop`,
    `mongodb+srv://${user}:${password}@cluster0.ab12c.mongodb.net/prod?retryWrites=true`,
    `redis://:${password}@${random.pick(['cache', 'redis.internal'])}:6379/0`,
    `amqp://${user}:${password}@rabbit.internal:5672/vhost`,
    `rediss://default:${password}@${host}:6380`,
  ];
  return { text: random.pick(shapes), secret: password };
}
