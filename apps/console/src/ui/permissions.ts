import { useSession } from '../session';

/**
 * Whether the signed-in session holds `permission` (its `permissions` array; `*` for a platform
 * operator). Pages hide what the role lacks; the API refuses it anyway, and its error is shown.
 */
export function useCan(): (permission: string) => boolean {
  const { session } = useSession();
  const held = session?.permissions ?? [];
  return (permission) => held.includes('*') || held.includes(permission);
}
