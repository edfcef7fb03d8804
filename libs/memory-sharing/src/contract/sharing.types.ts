// Shares and tag rules are memory's records (libs/memory owns memory_shares and
// memory_share_rules): their types, as this library's adapters and users name them.
export {
  type Grantee,
  type MemoryShare,
  type Party,
  type SharedMemory,
  type ShareGrant,
  type SharePermission,
  type ShareRule,
} from '@cairn/memory';

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}
