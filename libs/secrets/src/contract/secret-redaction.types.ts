import { type SecretTypeCount } from '@cairn/secret-detection';

/** What a tenant does with a secret found in text it is about to store (tenant setting `secrets`). */
export const SECRETS_MODES = ['redact', 'reject', 'allow'] as const;
export type SecretsMode = (typeof SECRETS_MODES)[number];
export const DEFAULT_SECRETS_MODE: SecretsMode = 'redact';

/** One original kept for a placeholder: sealed already, ready to store in the write's transaction. */
export interface SealedSecret {
  readonly placeholderId: string;
  readonly type: string;
  readonly ruleId: string;
  readonly envelope: Buffer;
}

/** Texts as they may be stored, what was redacted in them (types and counts), and the originals. */
export interface RedactedTexts {
  readonly texts: string[];
  readonly redacted: SecretTypeCount[];
  readonly sealed: SealedSecret[];
}

/** Who wrote the text and where it went: recorded with each original, checked by `secret_get`. */
export interface SecretWriteContext {
  readonly projectId: string | null;
  readonly sourceTable: string;
  readonly sourceId: string;
  readonly writer: { readonly userId: string | null; readonly agentId: string | null; readonly tokenId: string };
}

/** What `secret_get` returns: the original and where it was written. */
export interface RevealedSecret {
  readonly id: string;
  readonly type: string;
  readonly value: string;
  readonly sourceTable: string;
  readonly sourceId: string;
  readonly createdAt: Date;
}

/**
 * Named fields of one write, as SecretRedaction.redactFields takes them: a text, or a list or
 * JSON value holding texts at any depth (object keys, numbers, booleans, null and absent
 * fields stay as they are).
 */
export type TextFields = Readonly<Record<string, unknown>>;

/** The fields as they may be stored (same names and shapes), what was redacted and the originals. */
export interface RedactedFields<T extends TextFields> {
  readonly fields: T;
  readonly redacted: SecretTypeCount[];
  readonly sealed: SealedSecret[];
}
