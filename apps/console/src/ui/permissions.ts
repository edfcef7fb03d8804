import { useSession } from '../session';

/**
 * Whether the signed-in session's role grants a permission (the API's own names, from the
 * session's `permissions` array; `*` for a platform operator). Pages hide what this denies; the
 * API refuses it anyway, and its error is shown when it does.
 */
export function useCan(): (permission: string) => boolean {
  const { session } = useSession();
  const granted = session?.permissions ?? [];
  return (permission) => granted.includes('*') || granted.includes(permission);
}
