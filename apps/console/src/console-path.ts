/** The console's own paths, told apart from anything that would leave it (no DOM needed: unit-tested under Node). */

/** Any origin that cannot be ours: resolving against it shows whether a path would leave the console. */
const PROBE_ORIGIN = 'https://console.invalid';
/** Pages that are no destination after signing in. */
const NOT_A_DESTINATION = new Set(['/', '/sign-in', '/reset-password']);

/**
 * A console route path (relative to the router's base, such as `/oauth/consent/abc`), or
 * undefined for anything else: another origin (`//host`, `https:…`), a path that normalises to
 * something else (`/a/../b`, backslashes), a query or fragment. What is read back is checked
 * again, so a value planted in storage cannot send the browser elsewhere either.
 */
export function consolePath(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return undefined;
  let url: URL;
  try {
    url = new URL(value, PROBE_ORIGIN);
  } catch {
    return undefined;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname !== value || NOT_A_DESTINATION.has(value)) return undefined;
  return value;
}
