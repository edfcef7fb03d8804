import { z } from 'zod';

/**
 * A sealed original as a backup carries it (an export with `secrets=ciphertext`): the envelope as
 * stored (AES-256-GCM under the tenant's data key, bound to table `secrets`, the placeholder id
 * and field `value`) and the data-key version it needs. Never the value: only the same tenant,
 * holding that data key, can open it, so the backup restores into the tenant it came from.
 */
export const backedUpSecretSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a placeholder id'),
  type: z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a placeholder type'),
  ruleId: z.string().min(1).max(200),
  keyVersion: z.number().int().min(1).max(0xffff),
  ciphertext: z.base64().max(200_000),
  writer: z.strictObject({ userId: z.uuid().nullable(), agentId: z.string().max(200).nullable() }),
});
export type BackedUpSecret = z.infer<typeof backedUpSecretSchema>;

/** How an export treats the originals of its placeholders: not at all (default), or as ciphertext (admins). */
export const EXPORT_SECRETS = ['placeholders', 'ciphertext'] as const;
export type ExportSecrets = (typeof EXPORT_SECRETS)[number];
