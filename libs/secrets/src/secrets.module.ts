import { Module } from '@nestjs/common';
import { defaultSecretRules } from './default-rules';
import { SECRET_RULES, SecretScanner } from './secret-scanner.service';

/**
 * Secret detection for every write path: the scanner (rules compiled once per app) and, as
 * plain functions in the index, redaction. No database and no configuration: what a tenant
 * wants done with a finding is the caller's decision.
 *
 * How the write paths will use it (issue 12, later parts): each service that stores text
 * (memory, working memory, knowledge base, summaries, extraction, import) imports this module,
 * calls `scanner.scan(text)` before its repository write, and by the tenant's `secrets` setting
 * either refuses the write naming the finding types, or calls `redactSecrets(text, findings,
 * idFor)` with `idFor` an HMAC under the tenant's data key and stores the placeholders, keeping
 * each original encrypted under the placeholder id (what `secret_get` will read back).
 */
@Module({
  providers: [{ provide: SECRET_RULES, useFactory: defaultSecretRules }, SecretScanner],
  exports: [SecretScanner],
})
export class SecretsModule {}
