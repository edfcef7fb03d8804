import { ErrorMessage, PlainButton } from './forms';
import { type ShownMore } from './more';

/** The end of a growing list: its error, a loading line, and "Show more …" while the API has more. */
export function ShowMore({ list, what }: { readonly list: ShownMore<unknown>; readonly what: string }) {
  return (
    <div className="show-more">
      <ErrorMessage error={list.error} />
      {list.loading && (
        <p role="status" className="loading">
          Loading {what}…
        </p>
      )}
      {!list.loading && list.hasMore && <PlainButton onPress={list.more}>Show more {what}</PlainButton>}
    </div>
  );
}
