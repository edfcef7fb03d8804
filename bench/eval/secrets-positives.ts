import { crc32 } from 'node:zlib';
import {
  ALNUM,
  BASE64,
  BASE64URL,
  DIGITS,
  HEX,
  LOWER,
  type SecretsCorpusItem,
  type SeededRandom,
  UPPER,
} from './secrets-corpus';
import { bech32, checksummedToken, connectionString, jwt, privateKey } from './secrets-formats';

/**
 * The positive half of the corpus: secrets of many types in the sentences an agent stores
 * ("the staging DB is postgres://…", "rotated the Stripe key, new one is sk_live_….").
 * Each type is named as the scanner names it, so per-type recall can also check the type.
 */

interface SecretType {
  readonly type: string;
  /** What people call it in prose, and the variable it usually lives in. */
  readonly name: string;
  readonly env: string;
  readonly make: (random: SeededRandom) => string;
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

const TYPES: readonly SecretType[] = [
  {
    type: 'aws-access-token',
    name: 'AWS access key',
    env: 'AWS_ACCESS_KEY_ID',
    make: (r) => `${r.pick(['AKIA', 'ASIA'])}${r.chars(16, BASE32)}`,
  },
  { type: 'github-pat', name: 'GitHub token', env: 'GITHUB_TOKEN', make: (r) => checksummedToken(r, 'ghp_') },
  { type: 'github-oauth', name: 'GitHub OAuth token', env: 'GH_OAUTH_TOKEN', make: (r) => checksummedToken(r, 'gho_') },
  {
    type: 'github-app-token',
    name: 'GitHub App installation token',
    env: 'GH_APP_TOKEN',
    make: (r) => checksummedToken(r, r.pick(['ghs_', 'ghu_'])),
  },
  {
    type: 'github-fine-grained-pat',
    name: 'fine-grained GitHub PAT',
    env: 'GH_PAT',
    make: (r) => `github_pat_11${r.chars(20, UPPER + DIGITS)}_${r.chars(59, ALNUM)}`,
  },
  { type: 'gitlab-pat', name: 'GitLab token', env: 'GITLAB_TOKEN', make: (r) => `glpat-${r.chars(20, BASE64URL)}` },
  {
    type: 'slack-bot-token',
    name: 'Slack bot token',
    env: 'SLACK_BOT_TOKEN',
    make: (r) => `xoxb-${r.chars(11, DIGITS)}-${r.chars(13, DIGITS)}-${r.chars(24, ALNUM)}`,
  },
  {
    type: 'slack-user-token',
    name: 'Slack user token',
    env: 'SLACK_USER_TOKEN',
    make: (r) => `xoxp-${r.chars(11, DIGITS)}-${r.chars(12, DIGITS)}-${r.chars(13, DIGITS)}-${r.chars(32, HEX)}`,
  },
  {
    type: 'slack-webhook-url',
    name: 'Slack webhook',
    env: 'SLACK_WEBHOOK_URL',
    make: (r) =>
      `https://hooks.slack.com/services/T${r.chars(10, UPPER + DIGITS)}/B${r.chars(10, UPPER + DIGITS)}/${r.chars(24, ALNUM)}`,
  },
  {
    type: 'stripe-access-token',
    name: 'Stripe secret key',
    env: 'STRIPE_SECRET_KEY',
    make: (r) => `${r.pick(['sk', 'rk'])}_${r.pick(['live', 'test'])}_${r.chars(r.int(24, 99), ALNUM)}`,
  },
  {
    type: 'openai-api-key',
    name: 'OpenAI key',
    env: 'OPENAI_API_KEY',
    make: (r) => `sk-${r.pick(['proj', 'svcacct'])}-${r.chars(74, BASE64URL)}T3BlbkFJ${r.chars(74, BASE64URL)}`,
  },
  {
    type: 'anthropic-api-key',
    name: 'Anthropic API key',
    env: 'ANTHROPIC_API_KEY',
    make: (r) => `sk-ant-api03-${r.chars(93, BASE64URL)}AA`,
  },
  { type: 'gcp-api-key', name: 'Google API key', env: 'GOOGLE_API_KEY', make: (r) => `AIza${r.chars(35, BASE64URL)}` },
  { type: 'npm-access-token', name: 'npm token', env: 'NPM_TOKEN', make: (r) => checksummedToken(r, 'npm_') },
  {
    type: 'sendgrid-api-token',
    name: 'SendGrid key',
    env: 'SENDGRID_API_KEY',
    make: (r) => `SG.${r.chars(22, BASE64URL)}.${r.chars(43, BASE64URL)}`,
  },
  { type: 'twilio-api-key', name: 'Twilio API key', env: 'TWILIO_API_KEY', make: (r) => `SK${r.chars(32, HEX)}` },
  {
    type: 'huggingface-access-token',
    name: 'Hugging Face token',
    env: 'HF_TOKEN',
    make: (r) => `hf_${r.chars(34, LOWER + UPPER)}`,
  },
  {
    type: 'pypi-upload-token',
    name: 'PyPI upload token',
    env: 'TWINE_PASSWORD',
    make: (r) => `pypi-AgEIcHlwaS5vcmc${r.chars(r.int(120, 180), BASE64URL)}`,
  },
  {
    type: 'digitalocean-pat',
    name: 'DigitalOcean token',
    env: 'DIGITALOCEAN_TOKEN',
    make: (r) => `dop_v1_${r.chars(64, HEX)}`,
  },
  {
    type: 'shopify-access-token',
    name: 'Shopify admin token',
    env: 'SHOPIFY_ACCESS_TOKEN',
    make: (r) => `shpat_${r.chars(32, HEX)}`,
  },
  {
    type: 'age-secret-key',
    name: 'age identity',
    env: 'SOPS_AGE_KEY',
    make: (r) => bech32('age-secret-key-', r.bytes(32)).toUpperCase(),
  },
  {
    type: 'doppler-api-token',
    name: 'Doppler service token',
    env: 'DOPPLER_TOKEN',
    make: (r) => `dp.pt.${r.chars(43, ALNUM)}`,
  },
  {
    type: 'linear-api-key',
    name: 'Linear API key',
    env: 'LINEAR_API_KEY',
    make: (r) => `lin_api_${r.chars(40, ALNUM)}`,
  },
  {
    type: 'postman-api-token',
    name: 'Postman API key',
    env: 'POSTMAN_API_KEY',
    make: (r) => `PMAK-${r.chars(24, HEX)}-${r.chars(34, HEX)}`,
  },
  {
    type: 'vault-service-token',
    name: 'Vault token',
    env: 'VAULT_TOKEN',
    make: (r) => `hvs.CAESI${r.chars(r.int(90, 105), BASE64URL)}`,
  },
  {
    type: 'grafana-service-account-token',
    name: 'Grafana service account token',
    env: 'GRAFANA_TOKEN',
    make: (r) => grafanaToken(r),
  },
  {
    type: 'heroku-api-key-v2',
    name: 'Heroku API key',
    env: 'HEROKU_API_KEY',
    make: (r) => `HRKU-AA${r.chars(58, BASE64URL)}`,
  },
  {
    type: 'sentry-user-token',
    name: 'Sentry auth token',
    env: 'SENTRY_AUTH_TOKEN',
    make: (r) => `sntryu_${r.chars(64, HEX)}`,
  },
  { type: 'jwt', name: 'JWT', env: 'SESSION_JWT', make: jwt },
];

/** Grafana's `glsa_<32 random>_<CRC32 of the rest, hex>`. */
function grafanaToken(random: SeededRandom): string {
  const body = `glsa_${random.chars(32, ALNUM)}`;
  return `${body}_${crc32(body).toString(16).padStart(8, '0')}`;
}

/** Sentences around a token; {s} is the secret, {name} and {env} the type's words. */
const TEMPLATES = [
  'the {name} for the deploy bot is {s}',
  'Rotated the {name} this morning, the new one is {s}.',
  '{env}={s}',
  'export {env}="{s}"',
  'Set `{env}` to `{s}` in the CI settings before the release.',
  'CI config note: {env}: {s} (expires end of quarter)',
  '{"{env}": "{s}", "region": "eu-west-1"}',
  'user pasted their {name} by mistake: {s} — ask them to revoke it',
  'staging:\n  credentials:\n    token: {s}\n  retries: 3',
  'When the nightly sync fails with 401, the {name} ({s}) has probably expired.',
];

const GENERIC_TEMPLATES = [
  { text: 'api_key = "{s}"', make: (r: SeededRandom) => r.chars(32, ALNUM) },
  { text: 'DB_PASSWORD={s}', make: (r: SeededRandom) => r.chars(24, ALNUM) },
  { text: 'client_secret: {s}', make: (r: SeededRandom) => r.chars(40, ALNUM) },
  { text: 'aws_secret_access_key = {s}', make: (r: SeededRandom) => r.chars(40, BASE64) },
  { text: 'the service account password is {s} (do not share)', make: (r: SeededRandom) => r.chars(20, ALNUM) },
  { text: 'config.auth_token = "{s}"', make: (r: SeededRandom) => r.chars(36, HEX + UPPER) },
  { text: 'Use "X-Api-Key: {s}" for the partner API.', make: (r: SeededRandom) => r.chars(32, ALNUM) },
];

const CONNECTION_TEMPLATES = [
  'the staging DB is {s}',
  'DATABASE_URL={s}',
  'Connect with `psql "{s}"` from the bastion.',
  'Cache lives at {s}, flush it after deploys.',
  'For the reporting job use {s}.',
  'settings.py: DATABASES = {"default": dj_database_url.parse("{s}")}',
];

const KEY_TEMPLATES = [
  'Here is the deploy key for the build box:\n{s}\nkeep it out of the repo.',
  'id_ed25519 for the backup user:\n\n{s}\n',
  'The TLS key the load balancer uses (from the old wiki page):\n{s}',
];

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(s|name|env)\}/g, (_, key: string) => values[key] ?? '');

export function positives(random: SeededRandom, perType: number): SecretsCorpusItem[] {
  const items: SecretsCorpusItem[] = [];
  for (const type of TYPES) {
    for (let i = 0; i < perType; i += 1) {
      const secret = type.make(random);
      const template = random.pick(TEMPLATES);
      items.push({
        text: fill(template, { s: secret, name: type.name, env: type.env }),
        label: 'secret',
        type: type.type,
        secret,
      });
    }
  }
  for (let i = 0; i < perType + 2; i += 1) {
    const { text, secret } = connectionString(random);
    const template = CONNECTION_TEMPLATES[i % CONNECTION_TEMPLATES.length] ?? '{s}';
    items.push({ text: fill(template, { s: text }), label: 'secret', type: 'connection-string-password', secret });
  }
  for (let i = 0; i < perType; i += 1) {
    const secret = privateKey(random);
    items.push({ text: fill(random.pick(KEY_TEMPLATES), { s: secret }), label: 'secret', type: 'private-key', secret });
  }
  for (const template of GENERIC_TEMPLATES) {
    const secret = template.make(random);
    items.push({ text: fill(template.text, { s: secret }), label: 'secret', type: 'generic-api-key', secret });
  }
  return items;
}

/**
 * Secrets in the notations digests and ids use (hex, UUIDs, base64), in generic assignments:
 * gitleaks counts these as secrets (its own cases: a 64-hex `client_secret`, a UUID
 * `api_token`), so allow lists for digests under identifier names must leave them alone. Made
 * after the negatives, so the lines before them stay as they were.
 */
export function encodedSecretPositives(random: SeededRandom): SecretsCorpusItem[] {
  const hex = (length: number) => random.chars(length, HEX);
  const uuid = () => {
    const h = hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const templates: { text: string; secret: string }[] = [];
  const add = (text: (s: string) => string, secret: string) => templates.push({ text: text(secret), secret });
  add((s) => `encryption_key = ${s}`, hex(64));
  add((s) => `"client_secret": "${s}",`, hex(64));
  add((s) => `api_token = "${s}"`, uuid());
  add((s) => `pagerduty:\n  routing_key: ${s}`, hex(32));
  add((s) => `SECRET_KEY_BASE=${s}`, hex(128));
  add((s) => `signing_key: ${s}`, random.bytes(32).toString('base64'));
  add((s) => `CACHE_KEY_SECRET=${s}`, hex(64));
  add((s) => `session_secret: ${s}`, random.bytes(32).toString('base64url'));
  return templates.map(({ text, secret }) => ({
    text,
    label: 'secret',
    type: 'generic-api-key',
    secret,
  }));
}
