import { defaultSecretRules } from './default-rules';
import { SecretScanner } from './secret-scanner';

// The module itself (with the database and encryption) is exercised by secret-redaction.spec.ts.
describe('the default secret rules', () => {
  it('give a scanner that finds a GitHub token as a high-tier finding', () => {
    const scanner = new SecretScanner(defaultSecretRules());
    expect(scanner.scan('GITHUB_TOKEN=ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c')).toEqual([
      expect.objectContaining({ ruleId: 'gitleaks:github-pat', tier: 'high' }),
    ]);
  });
});
