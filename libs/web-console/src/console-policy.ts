/**
 * What the web console's responses promise the browser: where it is served, the Content-Security-Policy
 * (strict: only this origin's scripts, styles and API; no inline code, no framing) and how long each
 * file may be cached. Pure values, shared by the routes and their tests.
 */

/** The console's base path; the SPA is built with `base: '/console/'`. */
export const CONSOLE_PATH = '/console';

/** Helmet's `contentSecurityPolicy.directives`, without its defaults (no upgrade-insecure-requests on a local http server). */
export const CONSOLE_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
};

/** Vite writes content-hashed files under assets/: they never change, so browsers keep them a year. */
export function isConsoleAssetPath(relativePath: string): boolean {
  return /^\/?assets\/[^/]+$/.test(relativePath.replaceAll('\\', '/'));
}

/** Hashed assets: a year, immutable. Everything else (index.html): revalidated on every load, so a deploy shows at once. */
export function consoleCacheControl(relativePath: string): string {
  return isConsoleAssetPath(relativePath) ? 'public, max-age=31536000, immutable' : 'no-cache';
}
