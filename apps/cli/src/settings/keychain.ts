import { type KeychainReader } from './settings';

/** `oauth`: the OAuth client and tokens of `cairn login --oauth`, as one JSON document. */
export type TokenKind = 'token' | 'adminToken' | 'oauth';

/** The OS keychain as the command uses it: one secret per (server URL, kind). */
export interface KeychainStore extends KeychainReader {
  /** Keeps the token; false when this machine has no usable keychain (nothing was written). */
  writeToken(url: string, kind: TokenKind, token: string): Promise<boolean>;
  /** Removes the token; false when there was none or no keychain. */
  deleteToken(url: string, kind: TokenKind): Promise<boolean>;
}

const SERVICE = 'cairn';

interface AsyncEntryLike {
  getPassword(): Promise<string | null>;
  setPassword(password: string): Promise<void>;
  deletePassword(): Promise<boolean>;
}
type EntryConstructor = new (service: string, account: string) => AsyncEntryLike;

/**
 * The macOS Keychain, Windows Credential Manager or a Secret Service (GNOME Keyring, KWallet) on
 * Linux, through @napi-rs/keyring (prebuilt binaries per platform, no install script). Loaded
 * only when a token is read from or written to it, so commands that get their token from a flag,
 * CAIRN_TOKEN or the file never load it. A machine without one (a server, a container, CI: no
 * D-Bus Secret Service) makes every call answer "nothing there" / false instead of failing, and
 * `cairn login --keychain` falls back to the 0600 file with a warning.
 */
export class OsKeychain implements KeychainStore {
  private entryClass?: EntryConstructor | null;

  async readToken(url: string, kind: TokenKind): Promise<string | undefined> {
    const entry = this.entry(url, kind);
    if (!entry) return undefined;
    try {
      return (await entry.getPassword()) ?? undefined;
    } catch {
      return undefined;
    }
  }

  async writeToken(url: string, kind: TokenKind, token: string): Promise<boolean> {
    const entry = this.entry(url, kind);
    if (!entry) return false;
    try {
      await entry.setPassword(token);
      // A store that accepts writes it cannot give back (a locked or null backend) is no store.
      return (await entry.getPassword()) === token;
    } catch {
      return false;
    }
  }

  async deleteToken(url: string, kind: TokenKind): Promise<boolean> {
    const entry = this.entry(url, kind);
    if (!entry) return false;
    try {
      return await entry.deletePassword();
    } catch {
      return false;
    }
  }

  private entry(url: string, kind: TokenKind): AsyncEntryLike | undefined {
    if (this.entryClass === undefined) {
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use: start-up stays fast
        this.entryClass = (require('@napi-rs/keyring') as { AsyncEntry: EntryConstructor }).AsyncEntry;
      } catch {
        this.entryClass = null; // no binary for this platform
      }
    }
    return this.entryClass ? new this.entryClass(SERVICE, `${kind}@${url}`) : undefined;
  }
}
