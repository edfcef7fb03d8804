import { useCallback, useEffect, useRef, useState } from 'react';

/** One page of a cursor API, its cursor reduced to "where the next page starts" (null: no more). */
export interface MorePage<T, C> {
  readonly items: readonly T[];
  readonly next: C | null;
}

export interface ShownMore<T> {
  readonly items: readonly T[];
  readonly error: unknown;
  readonly loading: boolean;
  readonly hasMore: boolean;
  /** Appends the next page. */
  readonly more: () => void;
  /** Starts again from the first page (after a change the list shows). */
  readonly reload: () => void;
}

/**
 * A list that grows by "Show more" over a cursor API: pages are appended, so what a person
 * already read stays in place and keeps its focus. Answers to superseded requests are dropped.
 */
export function useShowMore<T, C>(
  load: (cursor: C | undefined) => Promise<MorePage<T, C>>,
  deps: readonly unknown[],
): ShownMore<T> {
  const [state, setState] = useState<{ items: readonly T[]; next: C | null; error?: unknown; loading: boolean }>({
    items: [],
    next: null,
    loading: true,
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const loader = useRef(load);
  loader.current = load;

  const fetchPage = useCallback((cursor: C | undefined, append: boolean) => {
    const request = ++latest.current;
    setState((previous) => ({ ...previous, error: undefined, loading: true }));
    loader.current(cursor).then(
      (page) => {
        if (request !== latest.current) return;
        setState((previous) => ({
          items: append ? [...previous.items, ...page.items] : page.items,
          next: page.next,
          loading: false,
        }));
      },
      (error: unknown) => {
        if (request === latest.current) setState((previous) => ({ ...previous, error, loading: false }));
      },
    );
  }, []);

  useEffect(() => {
    fetchPage(undefined, false);
  }, [...deps, generation]);

  return {
    items: state.items,
    error: state.error,
    loading: state.loading,
    hasMore: state.next !== null,
    more: () => {
      if (state.next !== null) fetchPage(state.next, true);
    },
    reload: useCallback(() => setGeneration((n) => n + 1), []),
  };
}
