import { type QueuedReview, type Review, type ReviewedMemory } from '../contract/memory-review.types';

const oneLine = (text: string, max = 200) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

/** One line per review decision, as memory_promote and memory_review answer it. */
export function reviewLine(review: Review): string {
  const what =
    review.kind === 'promotion'
      ? `promotion of ${review.memoryId} from ${review.fromScope} to ${review.toScope}`
      : `contradiction between ${review.memoryId} (new) and ${review.otherMemoryId}`;
  const how = review.resolution ? ` (${review.resolution})` : '';
  return `Review ${review.id}: ${what}, ${review.status}${how}.`;
}

/** Agent-written text is labelled: a reviewer reads it as data, never as instructions. */
function memoryLine(label: string, memory: ReviewedMemory | null): string {
  if (!memory) return `   ${label}: (deleted)`;
  const who = memory.agentWritten ? `unverified agent content by ${memory.author.agentId}` : 'written by a user';
  return `   ${label} ${memory.id} [${memory.category}, ${who}]: "${oneLine(memory.excerpt)}"`;
}

/** The queue as an agent reads it: each review, then the memories it is about. */
export function queueLines(items: readonly QueuedReview[]): string[] {
  return items.flatMap((review, index) => {
    const head =
      review.kind === 'promotion'
        ? `${index + 1}. ${review.id} promotion ${review.fromScope} -> ${review.toScope}` +
          (review.note ? `; note: ${oneLine(review.note)}` : '')
        : `${index + 1}. ${review.id} contradiction (resolve: keep_both, supersede, reject_new)`;
    const lines = [head, memoryLine(review.kind === 'promotion' ? 'memory' : 'new', review.memory)];
    if (review.kind === 'contradiction') lines.push(memoryLine('old', review.otherMemory));
    return lines;
  });
}
