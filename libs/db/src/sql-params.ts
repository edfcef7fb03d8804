/**
 * Binds one value as the next positional parameter of the statement being assembled and
 * returns its placeholder (`$n`). What a statement builder receives: it can add values, never
 * read or reorder the ones added before it.
 */
export interface Binder {
  add(value: unknown): string;
}

/** Collects positional parameters while SQL is assembled: `params.add(value)` returns `$n`. */
export class SqlParams implements Binder {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
