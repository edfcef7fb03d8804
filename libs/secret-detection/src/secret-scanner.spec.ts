import { defaultSecretRules } from './default-rules';
import { GITLEAKS_RULES } from './gitleaks-rule-set';
import { type ScanRule } from './scan-rule';
import { SCAN_OVERLAP_CHARS, SCAN_WINDOW_CHARS, SecretScanner } from './secret-scanner';

// Synthetic values in real formats; none is a live credential.
const GITHUB_PAT = 'ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c';
const AWS_KEY = 'AKIA2E4AYF3B7C5DQGQW';
const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1c2VyLTQyIiwidGVuYW50IjoiYWNtZSJ9.Xk2b9Qd7f1LmZr8TnV4cW6yH0pA3sJ5uE9gK2oB1tR4';
const PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MC4CAQAwBQYDK2VwBCIEIGq3n9yT0pQbV7wR2xLk5dH8sA4fC1mZ6uE0jN3vB9tY',
  '-----END PRIVATE KEY-----',
].join('\n');
const STRIPE = 'sk_live_9Rf2Lm7QxT4vW1bN8cK3pZ6sD0hJ5gYa';

describe('SecretScanner', () => {
  const scanner = new SecretScanner(defaultSecretRules());
  const only = (text: string) => scanner.scan(text).map(({ type, tier }) => ({ type, tier }));
  const spanOf = (text: string, value: string) => ({
    start: text.indexOf(value),
    end: text.indexOf(value) + value.length,
  });

  it('finds provider tokens as high-tier findings located on the secret itself', () => {
    const text = `deploy bot: GITHUB_TOKEN=${GITHUB_PAT} and AWS ${AWS_KEY} for the bucket`;
    expect(scanner.scan(text)).toEqual([
      { ruleId: 'gitleaks:github-pat', type: 'github-pat', tier: 'high', ...spanOf(text, GITHUB_PAT) },
      { ruleId: 'gitleaks:aws-access-token', type: 'aws-access-token', tier: 'high', ...spanOf(text, AWS_KEY) },
    ]);
  });

  it('finds a JWT, a PEM private key and a token that ends a sentence', () => {
    expect(only(`session: ${JWT}`)).toEqual([{ type: 'jwt', tier: 'high' }]);
    expect(only(`the deploy key:\n${PEM}\nkeep it safe`)).toEqual([{ type: 'private-key', tier: 'high' }]);
    const sentence = `Rotated the Stripe key, the new one is ${STRIPE}.`;
    expect(scanner.scan(sentence)).toEqual([
      expect.objectContaining({ type: 'stripe-access-token', ...spanOf(sentence, STRIPE) }),
    ]);
  });

  it.each([
    ['postgres://app:Xk29fLq7rT@db.internal:5432/app', 'Xk29fLq7rT'],
    ['mongodb+srv://etl:hunter2@cluster0.ab12c.mongodb.net/prod?retryWrites=true', 'hunter2'],
    ['redis://:s3cr3tCache@cache:6379/0', 's3cr3tCache'],
    ['amqp://svc:p%40ss%23word9@rabbit.internal:5672/vhost', 'p%40ss%23word9'],
  ])('finds the password of %s, and only the password', (url, password) => {
    const text = `the staging connection is ${url} (ask ops before using it)`;
    expect(scanner.scan(text)).toEqual([
      {
        ruleId: 'cairn:connection-string-password',
        type: 'connection-string-password',
        tier: 'high',
        ...spanOf(text, password),
      },
    ]);
  });

  it('reports a generic assignment with a high-entropy value as medium, and gives way to a provider rule', () => {
    expect(only('api_key = "q7Wm2Zx9Lk4Tn8Rb3Vc6Yh1Jp5Sd0Fg"')).toEqual([{ type: 'generic-api-key', tier: 'medium' }]);
    // The generic rule matches the assignment too; the provider's finding names it.
    expect(only(`STRIPE_SECRET_KEY=${STRIPE}`)).toEqual([{ type: 'stripe-access-token', tier: 'high' }]);
  });

  it("reads the variable name before the keyword, as gitleaks' allow lists need", () => {
    // gitleaks allows `primary_key = …` (a database key) by the whole match, name included.
    expect(only('primary_key = "Zx8Qw2Lm5Nv9Rt3Yb7"')).toEqual([]);
    expect(only('signing_key = "Zx8Qw2Lm5Nv9Rt3Yb7"')).toEqual([{ type: 'generic-api-key', tier: 'medium' }]);
    // A name longer than the 50 characters gitleaks reads still leaves the keyword's finding.
    expect(only(`${'n'.repeat(60)}_password = "Zx8Qw2Lm5Nv9Rt3Yb7"`)).toEqual([
      { type: 'generic-api-key', tier: 'medium' },
    ]);
  });

  it('leaves digests under names that use key for what identifies data, and still finds secrets in hex, UUIDs and base64', () => {
    const hex64 = '7f7c0a4f0d79b867916003a1181116841fb1f897ca1cc2cd31248ca032fab3a6';
    const uuid = 'dafa7817-e246-48f3-91a7-e87653d587b8';
    for (const text of [
      `cache_key = ${hex64}`,
      `partitionKey: "${hex64}"`,
      `Idempotency-Key: ${uuid}`,
      `SORT_KEY=${hex64.toUpperCase()}`,
      'KEY_PREFIX=cairn-prod-memories-v3',
    ]) {
      expect(only(text)).toEqual([]);
    }
    const medium = [{ type: 'generic-api-key', tier: 'medium' }];
    // gitleaks' own cases: hex and UUID values of secret names are secrets.
    expect(only(`"client_secret" : "${hex64}",`)).toEqual(medium);
    expect(only(`api_token = "${uuid}"`)).toEqual(medium);
    expect(only(`encryption_key = ${hex64}`)).toEqual(medium);
    // The identifier name must end the variable; names whose values are credentials are not allowed.
    expect(only(`CACHE_KEY_SECRET=${hex64}`)).toEqual(medium);
    expect(only(`routing_key: ${hex64}`)).toEqual(medium);
    expect(only(`hash_key = ${hex64}`)).toEqual(medium);
  });

  it.each([
    'Example from the AWS docs: AKIAIOSFODNN7EXAMPLE',
    'DATABASE_URL=postgres://user:password@localhost:5432/mydb',
    'DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/app',
    'postgres://app@db:5432/app and redis://localhost:6379/0',
    'api_key: ${API_KEY}',
    'fixed in commit 9fceb02d0ae598e95dc970b74767f19372d61af8, tenant 3f1c2b7e-9a4d-4c1e-8f2a-7b6d5e4c3a21',
    'const apiKey = process.env.OPENAI_API_KEY;',
    '',
  ])('finds nothing in %j', (text) => {
    expect(scanner.scan(text)).toEqual([]);
  });

  it('never carries the value of a secret in what it returns', () => {
    const findings = scanner.scan(`GITHUB_TOKEN=${GITHUB_PAT} ${PEM} postgres://app:Xk29fLq7rT@db/app`);
    expect(findings).toHaveLength(3);
    const serialized = JSON.stringify(findings);
    for (const value of [GITHUB_PAT, 'MC4CAQAwBQYDK2VwBCIEI', 'Xk29fLq7rT']) expect(serialized).not.toContain(value);
  });

  it('runs no pattern over a 64 KB text without keywords, and runs them once a keyword appears', () => {
    const calls: string[] = [];
    const spied: ScanRule[] = defaultSecretRules().map((rule) => ({
      ruleId: rule.ruleId,
      type: rule.type,
      tier: rule.tier,
      keywords: rule.keywords,
      generic: rule.generic,
      find: (text: string) => {
        calls.push(rule.ruleId);
        return rule.find(text);
      },
    }));
    const spyScanner = new SecretScanner(spied);
    const plain = 'lorem ipsum dolor sit amet consectetur adipiscing elit\n'.repeat(1200).slice(0, 64 * 1024);
    expect(plain).toHaveLength(64 * 1024);

    expect(spyScanner.inspect(plain)).toEqual({ findings: [], rulesRun: 0, windows: 1 });
    expect(calls).toEqual([]);

    const withToken = `${plain.slice(0, 30_000)} ${GITHUB_PAT} ${plain.slice(30_000)}`;
    const scan = spyScanner.inspect(withToken);
    expect(scan.findings.map((finding) => finding.type)).toEqual(['github-pat']);
    expect(calls).toContain('gitleaks:github-pat');
    expect(scan.rulesRun).toBe(calls.length);
    expect(scan.rulesRun).toBeLessThan(10);
  });

  it('scans large texts window by window, finding a secret across a window boundary once', () => {
    const step = SCAN_WINDOW_CHARS - SCAN_OVERLAP_CHARS;
    const filler = 'x'.repeat(step * 2 + 100);
    // Straddles the end of the first window, and sits deep in the third.
    const at = SCAN_WINDOW_CHARS - 20;
    const text = `${filler.slice(0, at)} ${GITHUB_PAT} ${filler.slice(at, step * 2 + 50)} ${AWS_KEY} ${filler}`;
    const scan = scanner.inspect(text);
    expect(scan.windows).toBeGreaterThanOrEqual(3);
    expect(scan.findings).toEqual([
      expect.objectContaining({ type: 'github-pat', ...spanOf(text, GITHUB_PAT) }),
      expect.objectContaining({ type: 'aws-access-token', ...spanOf(text, AWS_KEY) }),
    ]);
  });
});

describe('the generated gitleaks rule set', () => {
  it('carries over gitleaks rules with keywords, each compiling to a JavaScript pattern', () => {
    expect(GITLEAKS_RULES.source.module).toBe('github.com/zricethezav/gitleaks/v8');
    expect(GITLEAKS_RULES.rules.length).toBeGreaterThan(200);
    for (const rule of GITLEAKS_RULES.rules) {
      expect(rule.keywords.length).toBeGreaterThan(0);
      expect(() => new RegExp(rule.source, `${rule.flags}gd`)).not.toThrow();
    }
    const rules = defaultSecretRules();
    expect(rules).toHaveLength(GITLEAKS_RULES.rules.length + 1);
    expect(new Set(rules.map((rule) => rule.ruleId)).size).toBe(rules.length);
  });
});
