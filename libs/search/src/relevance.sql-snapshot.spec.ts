import { join } from 'node:path';
import { SqlParams } from '@cairn/db';
import { type EmbeddingModel, toVectorLiteral } from '@cairn/embeddings';
import { expectCommittedFile } from '@cairn/testing';
import { type Corpus } from './contract/corpus';
import { relevanceStatement } from './relevance.sql';

/**
 * The relevance statement (relevanceStatement) rendered with fixed inputs and compared with the
 * file committed under libs/search/sql/, as ranking.sql-snapshot.spec.ts does for the ranking
 * statements: every change to it shows in review (`npm run snapshots` rewrites it).
 */
const SQL_DIR = join(__dirname, '..', 'sql');
const MODEL: EmbeddingModel = { id: 'nomic-embed-text', provider: 'ollama', dimensions: 768, builtIn: false };
const vector = Float32Array.from({ length: MODEL.dimensions }, (_, i) => (i % 2 === 0 ? 0.036 : -0.036));
const IDS = ['0b0f5a52-59a4-4e8b-8c0e-1c7c3b8f6a01', '0b0f5a52-59a4-4e8b-8c0e-1c7c3b8f6a02'];

function corpus(params: SqlParams): Corpus {
  const projects = params.add(['6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11']);
  return {
    table: 'memories',
    where:
      `c.deleted_at IS NULL AND (c.project_id = ANY(${projects}::uuid[]) OR c.project_id IS NULL)` +
      ' AND c.archived_at IS NULL AND c.superseded_by IS NULL',
    signals: 'c.importance, c.confidence, c.pinned, c.created_at',
    termScopes: ['6f1c2f4e-3b1d-4c59-9a77-0d6c1f0e2a11', '00000000-0000-0000-0000-000000000000'],
  };
}

function rendered(header: string, sql: string, values: readonly unknown[]): string {
  const literal = toVectorLiteral(vector);
  const shown = (value: unknown) =>
    value === literal ? `<the query vector, ${MODEL.dimensions} dimensions>` : JSON.stringify(value);
  const bound = values.map((value, index) => `-- $${index + 1} = ${shown(value)}`);
  return [`-- ${header}`, ...bound, `${sql.trim().replace(/[ \t]+$/gm, '')};`].join('\n');
}

describe('the committed relevance SQL', () => {
  it.each([
    { file: 'relevance-hybrid.sql', shape: 'coverage and cosine', semantic: true },
    { file: 'relevance-keyword.sql', shape: 'coverage only (keyword search)', semantic: false },
  ])('renders the $shape statement as committed in $file', ({ file, shape, semantic }) => {
    const params = new SqlParams();
    const sql = relevanceStatement(corpus(params), params, {
      query: 'how are staging deploys triggered by Helm?',
      entities: 'Helm',
      maxTerms: 24,
      ids: IDS,
      ...(semantic && { semantic: { model: MODEL, vector } }),
    });
    const header = `Relevance signals, ${shape}: relevanceStatement (libs/search/src/relevance.sql.ts), run by RelevanceRepository.signals`;
    expectCommittedFile(join(SQL_DIR, file), rendered(header, sql, params.values));
  });
});
