import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { TenantAuditLog } from '@cairn/audit';
import { BadRequestError } from '@cairn/common';
import { EnvelopeEncryption } from '@cairn/encryption';
import { RequestContext } from '@cairn/observability';
import { TenantContext, TenantSettingsStore, TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';
import {
  DEFAULT_SECRETS_MODE,
  type RedactedFields,
  type RedactedTexts,
  type SealedSecret,
  SECRETS_MODES,
  type SecretsMode,
  type SecretWriteContext,
  type TextFields,
} from './contract/secret-redaction.types';
import {
  PLACEHOLDER_PATTERN,
  redactSecrets,
  type SecretFinding,
  SecretScanner,
  type SecretTypeCount,
} from '@cairn/secret-detection';
import { SecretsRepository } from './secrets.repository';

const modeValue = z.object({ mode: z.enum(SECRETS_MODES) });
/** The secrets mode's key of the tenant's settings. */
const SECRETS_KEY = 'secrets';
/** 128 bits of HMAC: collisions between a tenant's secrets are out of reach, ids stay short. */
const ID_BYTES = 16;
/** The placeholder type of a whole sealed content (`sensitive: true`). */
export const SENSITIVE_TYPE = 'sensitive';

/**
 * The one place write services send text before storing it (issue 12 §1): scans it and, by the
 * tenant's `secrets` setting, redacts each secret to `[SECRET:<type>:<id>]` (the id an HMAC of the
 * value under a tenant key) and seals the original, or refuses the write naming the types, or lets
 * it through. Call `redact` before the write's transaction (sealing may read the tenant's data key
 * on a connection of its own), then `keep` inside it, with the row the text went to.
 */
@Injectable()
export class SecretRedaction {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly scanner: SecretScanner,
    private readonly encryption: EnvelopeEncryption,
    private readonly repository: SecretsRepository,
    private readonly audit: TenantAuditLog,
    private readonly settings: TenantSettingsStore,
  ) {}

  async mode(): Promise<SecretsMode> {
    const parsed = modeValue.safeParse(await this.settings.read(SECRETS_KEY));
    return parsed.success ? parsed.data.mode : DEFAULT_SECRETS_MODE;
  }

  /** Sets the tenant's mode; the caller checks that only an admin chooses `allow` and audits it. */
  async setMode(mode: SecretsMode): Promise<void> {
    await this.settings.write(SECRETS_KEY, { mode });
  }

  /**
   * The texts as they may be stored (same order), what was redacted in them all (types, counts)
   * and the sealed originals. Throws `secrets_rejected` (400) under `reject` when any text holds
   * a secret; the error names the types, never a value.
   */
  async redact(texts: readonly string[]): Promise<RedactedTexts> {
    const scans = texts.map((text) => outsidePlaceholders(text, this.scanner.scan(text)));
    if (scans.every((findings) => findings.length === 0)) return { texts: [...texts], redacted: [], sealed: [] };
    const mode = await this.mode();
    if (mode === 'allow') {
      await this.auditAllowed(scans.flat());
      return { texts: [...texts], redacted: [], sealed: [] };
    }
    if (mode === 'reject') {
      const types = [...new Set(scans.flat().map((finding) => finding.type))];
      throw new BadRequestError(
        `the text holds secrets (${types.join(', ')}); this tenant refuses to store them`,
        { types },
        'secrets_rejected',
      );
    }
    const tenantId = this.tenant.require('SecretRedaction.redact').id;
    const digest = await this.encryption.keyedDigester(tenantId, 'secret-placeholder-id');
    const originals = new Map<string, { value: string; findings: readonly SecretFinding[]; text: string }>();
    const counts = new Map<string, number>();
    const out = texts.map((text, index) => {
      const findings = scans[index];
      if (findings.length === 0) return text;
      const result = redactSecrets(text, findings, (value) => {
        const id = digest(value).subarray(0, ID_BYTES).toString('base64url');
        originals.set(id, { value, findings, text });
        return id;
      });
      for (const { type, count } of result.summary) counts.set(type, (counts.get(type) ?? 0) + count);
      return result.text;
    });
    const sealed: SealedSecret[] = [];
    for (const [id, type] of placeholdersIn(out)) {
      const original = originals.get(id);
      if (!original) continue; // a placeholder the caller's text already carried
      const lead = original.findings.find(
        (finding) => finding.type === type && original.value.includes(original.text.slice(finding.start, finding.end)),
      );
      const envelope = await this.encryption.encrypt(
        tenantId,
        { table: 'secrets', rowId: id, field: 'value' },
        original.value,
      );
      sealed.push({ placeholderId: id, type, ruleId: lead?.ruleId ?? type, envelope });
    }
    const redacted: SecretTypeCount[] = [...counts].map(([type, count]) => ({ type, count }));
    return { texts: out, redacted, sealed };
  }

  /**
   * `redact` over named fields (texts and lists of texts) at once, for a write that stores
   * several: the same fields back with placeholders in place of secrets, and what `redact`
   * reports for all of them together. One call per write: one mode lookup, one set of originals.
   */
  async redactFields<T extends TextFields>(fields: T): Promise<RedactedFields<T>> {
    const texts: string[] = [];
    collectTexts(fields, texts);
    if (texts.length === 0) return { fields, redacted: [], sealed: [] };
    const clean = await this.redact(texts);
    return {
      fields: replaceTexts(fields, clean.texts[Symbol.iterator]()) as T,
      redacted: clean.redacted,
      sealed: clean.sealed,
    };
  }

  /**
   * Identifiers a later request names to find what was stored (a working-memory key, a file's
   * path): a placeholder there would make it unreachable by the name the client knows, so a
   * secret in one is refused (`secret_in_identifier`, naming the field and the types) unless the
   * tenant's mode is `allow` (audited as any allowed secret).
   */
  async refuseInIdentifiers(fields: Readonly<Record<string, string | undefined>>): Promise<void> {
    const found = Object.entries(fields).flatMap(([name, value]) =>
      value === undefined ? [] : this.scanner.scan(value).map((finding) => ({ name, finding })),
    );
    if (found.length === 0) return;
    if ((await this.mode()) === 'allow') {
      await this.auditAllowed(found.map(({ finding }) => finding));
      return;
    }
    const names = [...new Set(found.map(({ name }) => name))];
    const types = [...new Set(found.map(({ finding }) => finding.type))];
    throw new BadRequestError(
      `${names.join(', ')} must not hold a secret (${types.join(', ')}): it names what is stored, so it is kept as sent`,
      { fields: names, types },
      'secret_in_identifier',
    );
  }

  /**
   * Under `allow`, each write that stores secrets in the clear leaves an entry in the tenant's
   * chained audit log: which rules found what, and how often, never a value or where it was.
   * Written to the chain directly (every process that stores text has the database, not every
   * one has the audit queue), before the write, so a stored secret always has its entry; the
   * request id ties it to the call's own entry, which names the caller.
   */
  private async auditAllowed(findings: readonly SecretFinding[]): Promise<void> {
    const counts = new Map<string, { ruleId: string; type: string; count: number }>();
    for (const { ruleId, type } of findings) {
      const entry = counts.get(ruleId) ?? { ruleId, type, count: 0 };
      entry.count += 1;
      counts.set(ruleId, entry);
    }
    const tenant = this.tenant.require('SecretRedaction.auditAllowed');
    await this.audit.appendMany(tenant.schema, [
      {
        actor: 'secret-scanner',
        action: 'secrets.allowed',
        target: null,
        outcome: 'success',
        status: null,
        requestId: RequestContext.current()?.correlationId ?? null,
        details: { findings: [...counts.values()], total: findings.length },
      },
    ]);
  }

  /**
   * Seals a whole text (the content of a `sensitive: true` memory) under a fresh random id and
   * returns the placeholder that stands for it, `[SECRET:sensitive:<id>]`. Random, not an HMAC of
   * the text: two memories with the same content must not show that they are the same. Whatever
   * the tenant's `secrets` mode, nothing of the text is stored in the clear, so there is nothing
   * to scan, refuse or allow. Call before the write's transaction, then `keep` inside it.
   */
  async sealWhole(text: string): Promise<{ placeholder: string; sealed: SealedSecret }> {
    const tenantId = this.tenant.require('SecretRedaction.sealWhole').id;
    const id = randomBytes(ID_BYTES).toString('base64url');
    const envelope = await this.encryption.encrypt(tenantId, { table: 'secrets', rowId: id, field: 'value' }, text);
    return {
      placeholder: `[SECRET:${SENSITIVE_TYPE}:${id}]`,
      sealed: { placeholderId: id, type: SENSITIVE_TYPE, ruleId: SENSITIVE_TYPE, envelope },
    };
  }

  /**
   * The text of one source moved to another (which keeps its placeholders): its originals follow,
   * so they outlive the old source's removal. Call inside the move's tenant transaction.
   */
  async carry(from: { sourceTable: string; sourceId: string }, to: Omit<SecretWriteContext, 'writer'>): Promise<void> {
    await this.tx.run(() => this.repository.copySource(from, to));
  }

  /** Stores the sealed originals; call inside the write's tenant transaction, so they commit with it. */
  async keep(sealed: readonly SealedSecret[], context: SecretWriteContext): Promise<void> {
    if (sealed.length === 0) return;
    await this.tx.run(() => this.repository.insert(sealed, context));
  }
}

/**
 * The findings that touch no placeholder already in the text. A placeholder is not a secret, but
 * its id after `[SECRET:<type>:` can look like a generic `secret: <high-entropy value>`; redacting
 * it again would nest placeholders and make a re-imported or quoted one unreadable.
 */
function outsidePlaceholders(text: string, findings: readonly SecretFinding[]): readonly SecretFinding[] {
  if (findings.length === 0) return findings;
  const spans = [...text.matchAll(PLACEHOLDER_PATTERN)].map((match) => [match.index, match.index + match[0].length]);
  if (spans.length === 0) return findings;
  return findings.filter((finding) => spans.every(([start, end]) => finding.end <= start || finding.start >= end));
}

/** Every string in `value`, depth first in key order (what replaceTexts puts back in the same order). */
function collectTexts(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectTexts(item, into);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) collectTexts(item, into);
}

/** `value` with each string replaced by the next of `texts`, in collectTexts' order; a copy. */
function replaceTexts(value: unknown, texts: Iterator<string>): unknown {
  if (typeof value === 'string') return texts.next().value as string;
  if (Array.isArray(value)) return value.map((item: unknown) => replaceTexts(item, texts));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceTexts(item, texts)]));
  }
  return value;
}

/** Each distinct placeholder id in the texts with its type. */
function placeholdersIn(texts: readonly string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const text of texts) {
    for (const match of text.matchAll(PLACEHOLDER_PATTERN)) found.set(match[2], match[1]);
  }
  return found;
}
