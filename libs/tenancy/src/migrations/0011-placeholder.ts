import { type Migration } from '@cairn/db';

/**
 * PLACEHOLDER, branch kb-fetch only: version 11 belongs to another branch. Migrations must be
 * numbered 1..n, so this empty step stands in for it here. The integrator deletes this file
 * (and its line in index.ts) when merging, keeping the real 0011.
 */
export const placeholder0011: Migration = {
  version: 11,
  name: 'placeholder-0011',
  async up() {
    // Nothing: see above.
  },
};
