import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { expectCommittedFile } from '@cairn/testing';
import { type CorpusDefinition, corpusQuery } from './contract/corpus';
import { candidatesPerList } from './ranking-sizes';
import { rankingStatement } from './ranking.sql';
import { type RankingPlan } from './ranking.types';
import { DEFAULT_MATCH_BUDGET } from './text-ranking.service';

/**
 * The ranking statement in each of its shapes (keyword, semantic by index or exact scan, hybrid),
 * rendered with fixed inputs and compared with the files committed under libs/search/sql/
 * (`npm run snapshots` rewrites them). The generated ranking.repository.sql shows what each of
 * RankingRepository's methods sends, the ranking statement in one shape; these show every shape,
 * with the values bound. No database needed.
 */
const SQL_DIR = join(__dirname, '..', 'sql');

/** A provider model as the statements see it: its id and dimensions are literals in the text. */
const MODEL: EmbeddingModel = { id: 'nomic-embed-text', provider: 'ollama', dimensions: 768, builtIn: false };
const QUERY = 'how are staging deploys triggered by Helm?';
/** As HybridSearch.rank derives them for a result list of 10. */
const LIMIT = 10;
const PER_LIST = candidatesPerList(LIMIT);
const KEYWORD = { query: QUERY, entities: 'Helm', matchBudget: DEFAULT_MATCH_BUDGET, limit: PER_LIST, maxTerms: 24 };

const PROJECT = '6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11';

/**
 * A representative corpus as its owner would describe it: memories of one project and the
 * tenant-wide ones, live only. The owner's condition is the owner's; what search renders
 * around it (rankers, statistics, dated candidates) is what these snapshots show.
 */
const DEFINITION: CorpusDefinition<{ readonly projectIds: readonly string[] }> = {
  table: 'memories',
  signals: { importance: true, confidence: true, pinned: true },
  occurredAt: 'occurred_at',
  termScopes: (filter) => [...filter.projectIds, '00000000-0000-0000-0000-000000000000'],
  condition: (filter, binder, a) =>
    `${a}.deleted_at IS NULL AND (${a}.project_id = ANY(${binder.add(filter.projectIds)}::uuid[]) OR ${a}.project_id IS NULL)` +
    ` AND ${a}.archived_at IS NULL AND ${a}.superseded_by IS NULL`,
  within: (filter) => filter,
};
const CORPUS = corpusQuery(DEFINITION, { projectIds: [PROJECT] });

const vector = Float32Array.from({ length: MODEL.dimensions }, (_, i) => (i % 2 === 0 ? 0.036 : -0.036));
const semantic = (exact: boolean) => ({ model: MODEL, vector, limit: PER_LIST, exact });

/**
 * The header names the shape and the builder, the bound values follow, then the text as sent
 * (trailing spaces at line ends dropped, so editors cannot break the comparison).
 */
function rendered(header: string, sql: string, values: readonly unknown[]): string {
  const literal = toVectorLiteral(vector);
  const shown = (value: unknown) =>
    value === literal ? `<the query vector, ${MODEL.dimensions} dimensions>` : JSON.stringify(value);
  const bound = values.map((value, index) => `-- $${index + 1} = ${shown(value)}`);
  return [`-- ${header}`, ...bound, `${sql.trim().replace(/[ \t]+$/gm, '')};`].join('\n');
}

function ranking(plan: RankingPlan): { sql: string; values: unknown[] } {
  const params = new SqlParams();
  const sql = rankingStatement(CORPUS, params, plan);
  return { sql, values: params.values };
}

const SHAPES: readonly { file: string; shape: string; plan: RankingPlan }[] = [
  { file: 'ranking-keyword.sql', shape: 'keyword only', plan: { keyword: KEYWORD } },
  { file: 'ranking-semantic-index.sql', shape: 'semantic only, HNSW index scan', plan: { semantic: semantic(false) } },
  { file: 'ranking-semantic-exact.sql', shape: 'semantic only, exact scan', plan: { semantic: semantic(true) } },
  {
    file: 'ranking-hybrid.sql',
    shape: 'hybrid (keyword + semantic, HNSW index scan)',
    plan: { keyword: KEYWORD, semantic: semantic(false) },
  },
];

describe('the committed search SQL', () => {
  it.each(SHAPES)('renders the $shape ranking statement as committed in $file', ({ file, shape, plan }) => {
    const { sql, values } = ranking(plan);
    const header = `Ranking statement, ${shape}: rankingStatement (libs/search/src/ranking.sql.ts), run by RankingRepository.rank`;
    expectCommittedFile(join(SQL_DIR, file), rendered(header, sql, values));
  });
});
