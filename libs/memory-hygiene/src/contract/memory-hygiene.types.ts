/** A candidate duplicate: two live memories (`a < b`), how alike they are and why. */
export interface DuplicatePair {
  readonly a: string;
  readonly b: string;
  readonly similarity: number;
  readonly reason: 'same_content' | 'similar_vector';
}
