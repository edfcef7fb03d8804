import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { CliError, ExitCode } from '../cli-error';

/**
 * What `cairn login` keeps in `<config dir>/config.json` (mode 0600, directory 0700). Every
 * field is optional: flags and the environment override it field by field, and hooks and CI
 * run with no file at all.
 */
export const configFileSchema = z.strictObject({
  version: z.literal(1),
  /** The REST API base, e.g. `https://cairn.example.com` (CAIRN_URL). */
  url: z.url().optional(),
  /** The MCP endpoint when it is not `<url>/mcp` or the gateway's own host (CAIRN_MCP_URL). */
  mcpUrl: z.url().optional(),
  /** A session token; absent when it lives in the OS keychain or only in CAIRN_TOKEN. */
  token: z.string().min(1).max(1024).optional(),
  /** A platform or tenant admin token for `cairn admin …` (CAIRN_ADMIN_TOKEN). */
  adminToken: z.string().min(1).max(1024).optional(),
  /** The default project slug (CAIRN_PROJECT). */
  project: z.string().min(1).max(200).optional(),
  /**
   * What `cairn login --oauth` keeps for one MCP endpoint (oauth/oauth-store.ts): the client the
   * authorization server registered and the tokens it issued, or only where they are when they
   * live in the OS keychain. Read and written through the SDK's own schemas.
   */
  oauth: z
    .strictObject({
      mcpUrl: z.url(),
      inKeychain: z.literal(true).optional(),
      client: z.record(z.string(), z.unknown()).optional(),
      tokens: z.record(z.string(), z.unknown()).optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof configFileSchema>;

export const EMPTY_CONFIG: ConfigFile = { version: 1 };

/** Reads the config file; a missing file is an empty configuration, a malformed one is an error naming the file. */
export async function readConfigFile(path: string): Promise<ConfigFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return EMPTY_CONFIG;
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, ExitCode.notConfigured);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(
      `${path} is not valid JSON`,
      ExitCode.notConfigured,
      'Fix it by hand or run `cairn login` again.',
    );
  }
  const result = configFileSchema.safeParse(parsed);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new CliError(
      `${path}: ${issue?.path.join('.') || 'file'}: ${issue?.message ?? 'invalid'}`,
      ExitCode.notConfigured,
      'Fix it by hand or run `cairn login` again.',
    );
  }
  return result.data;
}

/**
 * Writes the config file atomically (temporary file, then rename) with mode 0600 in a 0700
 * directory, so a token in it is readable by its owner only, and a crash never leaves half a file.
 */
export async function writeConfigFile(path: string, config: ConfigFile): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(configFileSchema.parse(config), null, 2)}\n`, { mode: 0o600 });
  // writeFile's mode applies only to a new file; make sure an old one does not keep wider bits.
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}
