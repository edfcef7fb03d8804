import { z } from 'zod';

/** The manifest's format name and version; a reader refuses any other. */
export const INTEGRITY_MANIFEST_FORMAT = 'cairn-integrity/1';

/** A file's sha256 as 64 lower-case hex digits, or a symbolic link's target as `symlink:<target>`. */
const fileDigest = z.string().regex(/^([a-f0-9]{64}|symlink:.+)$/, 'must be a sha256 hex digest or symlink:<target>');
/** A path relative to the base directory, in POSIX form, never leaving it. */
const relativePath = z
  .string()
  .min(1)
  .refine(
    (path) => !path.startsWith('/') && !path.split('/').some((part) => part === '..' || part === '' || part === '.'),
    'must be a relative path inside the base directory',
  );

/**
 * The build-time baseline of the shipped files (written by tools/integrity, read at start): every
 * regular file and symbolic link under `roots`, relative to the directory the apps run in.
 */
export const integrityManifestSchema = z.object({
  format: z.literal(INTEGRITY_MANIFEST_FORMAT),
  algorithm: z.literal('sha256'),
  /** When and for which version the baseline was taken: shown in the report, not compared. */
  createdAt: z.string().min(1),
  version: z.string().optional(),
  roots: z.array(relativePath).min(1),
  files: z.record(relativePath, fileDigest),
});

export type IntegrityManifest = z.infer<typeof integrityManifestSchema>;
