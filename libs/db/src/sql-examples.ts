/**
 * An argument only the snapshot generator can make, because it is a live value of its run (a
 * statement runner on the example's transaction) or another library's to give (a corpus).
 */
export class GeneratedArgument {
  private constructor(readonly kind: 'sqlRunner' | 'corpus' | 'corpusTable') {}

  static readonly sqlRunner = new GeneratedArgument('sqlRunner');
  /** Memory's recall corpus of the example project, as MemoriesRepository.rankable hands it over. */
  static readonly corpus = new GeneratedArgument('corpus');
  /** That corpus's table (an owner's constant: search and embeddings never name it themselves). */
  static readonly corpusTable = new GeneratedArgument('corpusTable');
}

const id = (n: number) => `e0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

/**
 * Fixed values for @SqlSnapshot examples. The generator (tools/sql-snapshots) creates the rows
 * these ids name before it runs any example: a tenant with a user, a token, a project, two
 * memories of different authors and a little of everything a method reads before it writes.
 * The `new*` ids name rows that do not exist yet (an insert's).
 */
export const SNAPSHOT_EXAMPLE = {
  tenantId: id(1),
  newTenantId: id(2),
  userId: id(3),
  newUserId: id(4),
  tokenId: id(5),
  newTokenId: id(6),
  projectId: id(7),
  newProjectId: id(8),
  memoryId: id(9),
  otherMemoryId: id(10),
  newMemoryId: id(11),
  outboxId: id(12),
  documentId: id(13),
  chunkId: id(14),
  reviewId: id(15),
  proposalId: id(16),
  requestId: id(17),
  summaryId: id(18),
  eventId: id(19),
  shareId: id(20),
  ruleId: id(21),
  secretId: id(22),
  /** A fresh row's id where which table's does not matter. */
  newId: id(23),
  /** The example project's indexed `main` branch and its one file (src/deploy.ts). */
  branchId: id(24),
  fileId: id(25),
  agentId: 'claude-code',
  otherAgentId: 'cursor:bob',
  tenantSlug: 'example',
  projectSlug: 'web',
  email: 'ada@example.com',
  modelId: 'nomic-embed-text',
  masterKeyId: 'mk_0123456789abcdef',
  /** Another master key's fingerprint: the one the example data key is wrapped by. */
  oldMasterKeyId: 'mk_fedcba9876543210',
  /** Where a sealed secret was written, as `secrets.source_table` records it: a value, not SQL. */
  sourceTable: 'memories',
  contentHash: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
  /** A moment in the past, for `since` and `before` arguments. */
  date: new Date('2026-01-02T03:04:05.000Z'),
  /** A moment after every row the generator makes: what a cutoff that catches them all looks like. */
  future: new Date('2100-01-01T00:00:00.000Z'),
  sqlRunner: GeneratedArgument.sqlRunner,
  corpus: GeneratedArgument.corpus,
  corpusTable: GeneratedArgument.corpusTable,
} as const;
