import { consolePath } from './console-path';

/**
 * Where the console takes a person once they have signed in, when a page sent them to sign in
 * first (the OAuth consent page: an application is waiting for them). It is kept in
 * sessionStorage because signing in through an identity provider leaves the app and comes back
 * through the api's callback to `/console/`: state in memory would be lost, and a query
 * parameter would have to survive the IdP and the api. sessionStorage stays with this tab and
 * this origin only.
 */
const KEY = 'cairn.console.returnTo';
/** A sign-in takes minutes; a page remembered longer ago is one the person has given up on. */
const MAX_AGE_MS = 30 * 60_000;

export function rememberReturnTo(path: string): void {
  const checked = consolePath(path);
  if (checked === undefined) return;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ path: checked, at: Date.now() }));
  } catch {
    // Storage refused (disabled, full): the person lands on the home page after signing in.
  }
}

/** The remembered path, if recent and still a console path; reading does not consume it. */
export function pendingReturnTo(): string | undefined {
  try {
    const stored = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as { path?: unknown; at?: unknown } | null;
    if (!stored || typeof stored.at !== 'number' || Date.now() - stored.at > MAX_AGE_MS) return undefined;
    return consolePath(stored.path);
  } catch {
    return undefined;
  }
}

export function forgetReturnTo(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was stored.
  }
}
