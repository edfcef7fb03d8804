/**
 * Who is reading memories: the identity a private memory is matched against (its author, a
 * share's grantee). The same three ids a write records as the author (`Author` in @cairn/access).
 */
export interface MemoryViewer {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string;
}

/**
 * A reader with no identity of its own: the jobs and the admin backup export, which see every
 * memory of their projects whatever its scope. Named where it is used, never a default.
 */
export const SYSTEM_VIEWER = 'system' as const;
export type Viewer = MemoryViewer | typeof SYSTEM_VIEWER;
