import { SetMetadata } from '@nestjs/common';

/**
 * How a repository method's SQL gets into the committed snapshots (`libs/<lib>/sql/*.repository.sql`,
 * written by tools/sql-snapshots): the generator calls the method with each example's arguments
 * against a migrated database and records every statement it sends. A method that sends nothing
 * worth rendering says why instead. A public repository method with neither fails the snapshot
 * spec, so no statement escapes review.
 */
export const SQL_SNAPSHOT_METADATA = 'cairn:sql-snapshot';

/** Arguments to call a method with; `name` tells apart the shapes of a method with several. */
export interface SqlExample {
  readonly name?: string;
  readonly params: readonly unknown[];
}

export type SqlSnapshotPlan =
  | { readonly kind: 'examples'; readonly examples: readonly SqlExample[] }
  | { readonly kind: 'exempt'; readonly reason: string };

/**
 * Renders the method's statements for each example (at least one; `{ params: [] }` for a method
 * without arguments). Examples name rows by the ids of SNAPSHOT_EXAMPLE, which the generator creates.
 */
export function SqlSnapshot(first: SqlExample, ...more: SqlExample[]): MethodDecorator {
  const examples = [first, ...more];
  const names = examples.map((example) => example.name ?? '');
  if (new Set(names).size !== names.length) throw new Error('@SqlSnapshot: give each example its own name');
  return SetMetadata(SQL_SNAPSHOT_METADATA, { kind: 'examples', examples } satisfies SqlSnapshotPlan);
}

/** For the rare method whose SQL cannot be rendered by calling it (it returns a value another repository renders, …). */
export function NoSqlSnapshot(reason: string): MethodDecorator {
  if (reason.trim().length < 10) throw new Error('@NoSqlSnapshot: say why the method has no snapshot');
  return SetMetadata(SQL_SNAPSHOT_METADATA, { kind: 'exempt', reason } satisfies SqlSnapshotPlan);
}

/** The plan a method declared, if any. */
export function sqlSnapshotPlan(method: unknown): SqlSnapshotPlan | undefined {
  return typeof method === 'function'
    ? (Reflect.getMetadata(SQL_SNAPSHOT_METADATA, method) as SqlSnapshotPlan | undefined)
    : undefined;
}
