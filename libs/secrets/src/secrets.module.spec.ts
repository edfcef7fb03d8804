import { Test } from '@nestjs/testing';
import { SecretScanner } from './secret-scanner.service';
import { SecretsModule } from './secrets.module';

describe('SecretsModule', () => {
  it('provides a scanner with the default rules', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [SecretsModule] }).compile();
    const scanner = moduleRef.get(SecretScanner);
    expect(scanner.scan('GITHUB_TOKEN=ghp_Zq8vN3kT5wR1yL7pC2xM9bH4dF6gJ0sA1b2c')).toEqual([
      expect.objectContaining({ ruleId: 'gitleaks:github-pat', tier: 'high' }),
    ]);
    await moduleRef.close();
  });
});
