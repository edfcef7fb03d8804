import {
  type OAuthClientInformationMixed,
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  type OAuthTokens,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { type ConfigFile, readConfigFile, writeConfigFile } from '../settings/config-file';
import { type KeychainStore } from '../settings/keychain';

/** Tokens as kept: the SDK's (with the `issuer` it stamps them with) and when they were obtained. */
export interface StoredTokens extends OAuthTokens {
  /** Epoch milliseconds: with `expires_in`, when the access token stops working. */
  readonly obtainedAt?: number;
}

/** What is kept for one MCP endpoint: the registered client and the tokens. */
export interface OAuthCredentials {
  client?: OAuthClientInformationMixed;
  tokens?: StoredTokens;
}

/**
 * Where `cairn login --oauth` keeps its client and tokens: beside the session token, in the
 * config file (mode 0600) or, with `--keychain`, in the OS keychain (account `oauth@<mcp url>`,
 * one JSON document) with only the endpoint and the word "keychain" in the file. One endpoint at
 * a time, as the session token is one server at a time. Everything read back goes through the
 * SDK's schemas; a record for another endpoint, or one that no longer parses, reads as empty
 * (the next authorization replaces it) rather than failing the bridge.
 */
export class OAuthStore {
  constructor(
    private readonly configFile: string,
    readonly mcpUrl: string,
    private readonly keychain?: KeychainStore,
  ) {}

  /** Whether this endpoint has anything kept (the bridge then uses OAuth without being told). */
  async exists(): Promise<boolean> {
    const { oauth } = await readConfigFile(this.configFile);
    return oauth?.mcpUrl === this.mcpUrl;
  }

  async load(): Promise<OAuthCredentials> {
    const { oauth } = await readConfigFile(this.configFile);
    if (oauth?.mcpUrl !== this.mcpUrl) return {};
    let raw: { client?: unknown; tokens?: unknown } = oauth;
    if (oauth.inKeychain) {
      const text = await this.keychain?.readToken(this.mcpUrl, 'oauth').catch(() => undefined);
      raw = parseJson(text) ?? {};
    }
    return {
      // A registered client has its metadata (redirect URIs…); a Client ID Metadata Document URL
      // or pre-registered credentials only an id (and secret).
      client: parsed(OAuthClientInformationFullSchema, raw.client) ?? parsed(OAuthClientInformationSchema, raw.client),
      tokens: parseTokens(raw.tokens),
    };
  }

  /**
   * Keeps the credentials where they already are, or in the keychain when `preferKeychain` and
   * this machine has one (false when it fell back to the file).
   */
  async save(credentials: OAuthCredentials, preferKeychain?: boolean): Promise<'keychain' | 'file'> {
    const file = await readConfigFile(this.configFile);
    const current = file.oauth?.mcpUrl === this.mcpUrl ? file.oauth : undefined;
    const wantKeychain = preferKeychain ?? current?.inKeychain === true;
    const document = JSON.stringify({ client: credentials.client, tokens: credentials.tokens });
    if (wantKeychain && (await this.keychain?.writeToken(this.mcpUrl, 'oauth', document))) {
      await this.write(file, { mcpUrl: this.mcpUrl, inKeychain: true });
      return 'keychain';
    }
    await this.write(file, {
      mcpUrl: this.mcpUrl,
      ...(credentials.client ? { client: { ...credentials.client } } : {}),
      ...(credentials.tokens ? { tokens: { ...credentials.tokens } } : {}),
    });
    if (current?.inKeychain) await this.keychain?.deleteToken(this.mcpUrl, 'oauth');
    return 'file';
  }

  /** Forgets whatever is kept for this endpoint (file and keychain); true when there was something. */
  async clear(): Promise<boolean> {
    const file = await readConfigFile(this.configFile);
    if (!file.oauth) return false;
    const { oauth, ...rest } = file;
    await writeConfigFile(this.configFile, rest);
    if (oauth.inKeychain) await this.keychain?.deleteToken(oauth.mcpUrl, 'oauth');
    return true;
  }

  private async write(file: ConfigFile, oauth: NonNullable<ConfigFile['oauth']>): Promise<void> {
    // Read again just before writing: the bridge and `cairn login` may both have written since.
    const latest = await readConfigFile(this.configFile).catch(() => file);
    await writeConfigFile(this.configFile, { ...latest, oauth });
  }
}

function parseTokens(raw: unknown): StoredTokens | undefined {
  const tokens = parsed(OAuthTokensSchema, raw);
  if (!tokens) return undefined;
  const obtainedAt = (raw as { obtainedAt?: unknown }).obtainedAt;
  return typeof obtainedAt === 'number' ? { ...tokens, obtainedAt } : tokens;
}

function parsed<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  raw: unknown,
) {
  if (raw === undefined) return undefined;
  const result = schema.safeParse(raw);
  return result.success ? result.data : undefined;
}

function parseJson(text: string | undefined): { client?: unknown; tokens?: unknown } | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}
