import { createHash } from 'node:crypto';
import { ALNUM, BASE64, DIGITS, HEX, type SecretsCorpusItem, type SeededRandom } from './secrets-corpus';

/**
 * The negative half: text that looks like a secret to a careless rule and is not one. Hashes,
 * ids, encoded images, integrity strings, placeholders from documentation, code that names
 * keys without holding them, and prose about credentials. Each line says which kind it is.
 */

type Maker = (random: SeededRandom) => string;

const hex = (random: SeededRandom, length: number) => random.chars(length, HEX);

function uuid(random: SeededRandom): string {
  const h = hex(random, 32);
  const variant = random.pick(['8', '9', 'a', 'b']);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const sha256 = (random: SeededRandom) => createHash('sha256').update(random.bytes(16)).digest('hex');
/** A digest of random bytes in the given hash and notation. */
const digest = (random: SeededRandom, algorithm: string, encoding: 'hex' | 'base64' | 'base64url') =>
  createHash(algorithm).update(random.bytes(16)).digest(encoding);

const camel = (random: SeededRandom, words: number) => {
  const vocabulary = [
    'user',
    'access',
    'token',
    'refresh',
    'expiry',
    'handler',
    'factory',
    'session',
    'key',
    'provider',
    'resolver',
    'cache',
    'secret',
    'manager',
    'config',
    'builder',
    'password',
    'policy',
    'validator',
    'credential',
  ];
  const parts = Array.from({ length: words }, () => random.pick(vocabulary));
  return parts.map((part, i) => (i === 0 ? part : part[0]?.toUpperCase() + part.slice(1))).join('');
};

const LOREM = [
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.',
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.',
  'Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.',
  'Excepteur sint occaecat cupidatat non proident, sunt in culpa qui officia deserunt mollit anim id est laborum.',
];

const KINDS: Record<string, { count: number; make: Maker }> = {
  uuid: {
    count: 12,
    make: (r) =>
      r
        .pick([
          'the tenant id is {x}',
          'memory {x} was superseded',
          'request_id={x}',
          'Project {x} owns the knowledge base.',
        ])
        .replace('{x}', uuid(r)),
  },
  'git-sha': {
    count: 12,
    make: (r) =>
      r
        .pick([
          'fixed in commit {x}',
          'git revert {x}',
          'HEAD is now at {x}',
          'the regression started at {x} (bisected)',
        ])
        .replace('{x}', hex(r, 40)),
  },
  sha256: {
    count: 10,
    make: (r) =>
      r
        .pick([
          'sha256 of the release tarball: {x}',
          'checksum {x}  cairn-0.4.2.tgz',
          'content hash {x} matched, skipped re-embedding',
        ])
        .replace('{x}', sha256(r)),
  },
  'image-digest': { count: 6, make: (r) => `image: ghcr.io/acme/cairn-api@sha256:${sha256(r)}` },
  'data-url': {
    count: 10,
    make: (r) =>
      `logo: <img src="data:image/${r.pick(['png', 'jpeg', 'gif'])};base64,${r.pick(['iVBORw0KGgo', '/9j/4AAQSkZJRg', 'R0lGODlh'])}${r.chars(r.int(120, 400), BASE64)}=" alt="logo">`,
  },
  lorem: { count: 10, make: (r) => Array.from({ length: r.int(1, 3) }, () => r.pick(LOREM)).join(' ') },
  identifier: {
    count: 14,
    make: (r) =>
      r
        .pick([
          'call {x}() before refreshing',
          'renamed {x} to keep the linter quiet',
          'the bug is in {x}.ts line 42',
          'const {x} = new Map<string, string>();',
        ])
        .replace('{x}', camel(r, r.int(3, 6))),
  },
  'npm-integrity': { count: 8, make: (r) => `"integrity": "sha512-${r.chars(86, BASE64)}=="` },
  'aws-arn': {
    count: 10,
    make: (r) =>
      r.pick([
        `arn:aws:iam::${r.chars(12, DIGITS)}:role/deploy-bot`,
        `the bucket is arn:aws:s3:::acme-backups-${r.pick(['eu', 'us'])}/nightly/`,
        `region us-east-1, account ${r.chars(12, DIGITS)}`,
        `arn:aws:secretsmanager:eu-west-1:${r.chars(12, DIGITS)}:secret:prod/db-AbCdEf`,
        `aws sts assume-role --role-arn arn:aws:iam::${r.chars(12, DIGITS)}:role/ci --role-session-name ci`,
      ]),
  },
  numbers: {
    count: 8,
    make: (r) =>
      r.pick([
        `build ${r.int(1000, 9999)} took ${r.int(2, 59)}m on 2026-${r.int(10, 12)}-${r.int(10, 28)}T04:12:33Z`,
        `bump version to ${r.int(1, 9)}.${r.int(0, 30)}.${r.int(0, 99)}`,
        `color #${hex(r, 6)} for the dark theme`,
        `the host 10.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)} answers on port ${r.int(1024, 65535)}`,
      ]),
  },
  'keyed-hash': {
    count: 6,
    make: (r) =>
      r.pick([`cache_key = ${sha256(r)}`, `idempotency_key: ${uuid(r)}`, `etag key ${hex(r, 40)} unchanged`]),
  },
  'random-id': {
    count: 8,
    make: (r) =>
      r.pick([
        `trace id ${hex(r, 32)}`,
        `span ${hex(r, 16)} took 41 ms`,
        `the session cookie name is sid_${r.chars(6, ALNUM)}`,
        `order #${r.chars(10, DIGITS)} shipped`,
      ]),
  },
  // Digests and ids in other hashes and notations, under names that use `key` for what
  // identifies or orders data (gitleaks allows primary_key, bucket_key, key_id and the like).
  'identifier-key': {
    count: 14,
    make: (r) =>
      r.pick([
        `partition_key = ${digest(r, 'sha1', 'hex')}`,
        `sort_key: "${digest(r, 'sha256', 'base64')}"`,
        `dedup_key=${uuid(r)}`,
        `CACHE_KEY=${digest(r, 'sha256', 'hex').toUpperCase()}`,
        `lookup_key: ${digest(r, 'sha256', 'base64url')}`,
        `row_key = "${digest(r, 'sha512', 'hex')}"`,
        `Idempotency-Key: ${digest(r, 'sha1', 'hex')}`,
        `shard_key: ${digest(r, 'md5', 'hex')}`,
        `const cacheKey = '${digest(r, 'sha256', 'hex')}';`,
        `deduplicationKey: ${digest(r, 'sha384', 'base64')}`,
        `KEY_NAMESPACE=tenant-${digest(r, 'md5', 'hex').slice(0, 12)}`,
      ]),
  },
};

/** Placeholders, examples and code that names secrets without holding one. */
const FIXED: Record<string, readonly string[]> = {
  placeholder: [
    'Set OPENAI_API_KEY=<YOUR_API_KEY> in your shell before running the examples.',
    'The key looks like sk-... and is shown once when you create it.',
    'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
    'Example from the AWS docs: AKIAIOSFODNN7EXAMPLE',
    'api_key: ${API_KEY}',
    'password: {{ .Values.postgresql.auth.password }}',
    'DATABASE_URL=postgres://user:password@localhost:5432/mydb',
    'postgres://app@db:5432/app (auth is by client certificate)',
    'REDIS_URL=redis://localhost:6379/0',
    'token: <redacted>',
    'STRIPE_SECRET_KEY=sk_test_...',
    'Authorization: Bearer $TOKEN',
    'curl -H "Authorization: Bearer ${GITHUB_TOKEN}" https://api.github.com/user',
    'export ANTHROPIC_API_KEY="your-key-here"',
    'mongodb+srv://<username>:<password>@cluster0.example.mongodb.net/',
    'SLACK_BOT_TOKEN=xoxb-your-bot-token',
    'secret: "{{ secrets.DEPLOY_KEY }}"',
    'password = os.environ["DB_PASSWORD"]',
    'password=changeme',
    'Replace REPLACE_WITH_YOUR_TOKEN in config.toml.',
    'DB_PASSWORD=********',
    'The JWT has three parts: eyJhbGciOi... (header), the payload, and the signature.',
    'private keys start with -----BEGIN PRIVATE KEY----- and must never be committed',
    'hf_token = None  # set from HF_TOKEN',
  ],
  code: [
    'const apiKey = process.env.OPENAI_API_KEY;',
    'token := os.Getenv("SLACK_TOKEN")',
    'password = getpass.getpass("Password: ")',
    'if (!config.auth.token) throw new Error("missing token");',
    'def rotate_access_key(user_name: str) -> None:',
    'secretKeyRef:\n  name: db-credentials\n  key: password',
    'kubectl create secret generic api-keys --from-env-file=.env',
    'headers["Authorization"] = f"Bearer {self.access_token}"',
    'private readonly tokenCache = new LRUCache<string, TokenPayload>({ max: 500 });',
    'await keyring.setPassword(SERVICE_NAME, account, secret);',
    'SELECT api_key_hash FROM api_keys WHERE tenant_id = $1',
    'access_token_expires_in_seconds: 3600',
    'const passwordMinLength = 14;',
    'authTokenRefreshIntervalMs: 300000',
    'import { getSecretValue } from "@aws-sdk/client-secrets-manager";',
  ],
  // Assignments whose names say key, token or secret and whose values are not secrets.
  assignment: [
    'session_key: user-profile-cache-v2',
    'api_version = "2024-06-01-preview"',
    'token_type: bearer',
    'KEY_PREFIX=cairn-prod-memories-v3',
    'secret_name = "prod/payments/stripe"',
    'AUTH_SERVICE_URL=https://auth.internal.acme.io/v1/oauth/token',
    'auth: { strategy: "jwt", audience: "cairn-api" }',
    'access_log_format: combined_with_latency_ms',
    'password_hash_algorithm = argon2id',
    'API_BASE_URL=https://api.stripe.com/v1',
    'credentials_file: ~/.aws/credentials',
    'token_ttl_seconds=86400',
  ],
  prose: [
    'We rotate the API key every 90 days; the runbook is in ops/rotation.md.',
    'The password policy requires 14 characters and no reuse of the last five.',
    'Store tokens in Vault, never in the repository.',
    'GitHub Actions reads GITHUB_TOKEN from the secrets store automatically.',
    'The Stripe webhook secret lives in the payments namespace.',
    'Ask Dana for access to the staging database; she can add you to the readers group.',
    'Our JWTs expire after an hour and are refreshed by the gateway.',
    'The SSH key for the backup host was replaced after the laptop was lost.',
    'Use the service account, not your personal access token, for the cron job.',
    'Auth failures spiked at 03:10 UTC when the token cache was flushed.',
    'The credentials rotation job runs on Sundays at 02:00.',
    'Keys are wrapped with the master key from the Kubernetes Secret cairn-master-key.',
    'Decided: the API key header is X-Api-Key, not Authorization, for the partner integration.',
    'Reminder: revoke the old npm token after publishing the 2.0 release.',
    'The secret scanner flagged nothing in the last import.',
  ],
};

export function negatives(random: SeededRandom): SecretsCorpusItem[] {
  const items: SecretsCorpusItem[] = [];
  for (const [kind, { count, make }] of Object.entries(KINDS)) {
    for (let i = 0; i < count; i += 1) items.push({ text: make(random), label: 'clean', kind });
  }
  for (const [kind, texts] of Object.entries(FIXED)) {
    for (const text of texts) items.push({ text, label: 'clean', kind });
  }
  return items;
}
