import { posix, win32 } from 'node:path';

// C0 and C1 controls, NUL and DEL included: no place in a path an agent is told to open.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Why `path` is not a plain path relative to the repository root, or null when it is. Absolute
 * forms of both platforms (`/etc`, `C:\x`, `C:x`, `\\server\share`) and home-relative `~` are
 * refused, and so is any `..` segment, also when percent-encoded: a message must not steer an
 * agent to a file outside the repository. Node's own path parsers decide what is absolute.
 */
export function filePathProblem(path: string): string | null {
  if (CONTROL.test(path)) return 'must not contain control characters';
  for (const form of decodedForms(path)) {
    if (posix.isAbsolute(form) || win32.parse(form).root !== '' || form.startsWith('~')) {
      return 'must be relative to the repository root, not absolute';
    }
    if (form.split(/[\\/]/).includes('..')) return 'must not contain ".." segments';
    if (CONTROL.test(form)) return 'must not contain control characters';
  }
  return null;
}

/** The path as given and, if it holds percent escapes, as decoded (a malformed escape counts as given). */
function decodedForms(path: string): string[] {
  if (!path.includes('%')) return [path];
  try {
    return [path, decodeURIComponent(path)];
  } catch {
    return [path];
  }
}
