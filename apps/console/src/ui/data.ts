import { useCallback, useEffect, useState } from 'react';

/** The state of one load from the API: its data, its error, and a way to load it again. */
export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, loading: true }));
    load().then(
      (data) => current && setState({ data, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [...deps, generation]);
  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { data: state.data, error: state.error, loading: state.loading, reload };
}

/** Cursor pagination: the cursors of the pages before this one, so "previous" needs no server support. */
export function useCursorPages() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    page: cursors.length,
    hasPrevious: cursors.length > 1,
    next: (nextCursor: string | null | undefined) => nextCursor && setCursors((list) => [...list, nextCursor]),
    previous: () => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)),
    reset: () => setCursors([undefined]),
  };
}
