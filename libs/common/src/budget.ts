/** What `withinBudget` resolves to when the work did not settle in time. */
export const LATE = Symbol('late');

/**
 * `work`'s value, or LATE when it has not settled within `ms` (its rejection, if it rejects in
 * time). The timer is always cleared; the work itself is not cancelled: a caller that wants that
 * aborts its own signal. For model calls a search or a write waits on only up to a budget.
 */
export async function withinBudget<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
