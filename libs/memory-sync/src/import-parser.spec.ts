import { type Memory } from '@cairn/memory';
import { exportHeaderLine, exportLine } from './contract/export-format';
import { parseImport } from './import-parser';

const LIMITS = { maxContentChars: 200, maxLines: 5 };
const ID_A = '11111111-1111-4111-8111-111111111111';
const ID_B = '22222222-2222-4222-8222-222222222222';

function memory(overrides: Partial<Memory> = {}): Memory {
  return {
    id: ID_A,
    project: 'web',
    projectId: '99999999-9999-4999-8999-999999999999',
    scope: 'project',
    content: 'Deploys run on Fridays',
    category: 'fact',
    tags: ['deploy'],
    keywords: ['Release'],
    importance: 3,
    confidence: 0.76,
    source: { path: 'ops/deploy.md', line: null, contentHash: 'sha256:0123456789' },
    stale: false,
    verifiedAt: null,
    author: { userId: null, agentId: 'claude-code:alice', tokenId: 'ignored' },
    pinned: false,
    sensitive: false,
    version: 2,
    supersededBy: null,
    accessCount: 4,
    lastAccessedAt: new Date('2025-01-02T03:04:05.678Z'),
    archivedAt: null,
    deletedAt: null,
    occurredAt: new Date('2024-11-30T18:00:00.000Z'),
    createdAt: new Date('2024-12-01T00:00:00.000Z'),
    updatedAt: new Date('2025-01-01T00:00:00.000Z'),
    contentHash: 'x',
    embedded: false,
    ...overrides,
  };
}

const header = exportHeaderLine('web', new Date('2025-02-01T00:00:00.000Z'));

function errorsOf(text: string): { line: number; path: string; message: string }[] {
  try {
    parseImport(text, LIMITS);
  } catch (error) {
    return (error as { details: { line: number; path: string; message: string }[] }).details;
  }
  throw new Error('expected the import to be rejected');
}

describe('the export format and import parser', () => {
  it('reads back exactly what it writes', () => {
    const lines = [
      exportLine(memory(), [{ toId: ID_B, type: 'related_to', note: null }]),
      exportLine(memory({ id: ID_B, projectId: null, archivedAt: new Date('2025-01-05T00:00:00.000Z') }), []),
    ];
    const parsed = parseImport(`${header}\n${lines.join('\n')}\n`, LIMITS);
    expect(parsed.header).toMatchObject({ format: 'cairn.memories', version: 1, project: 'web' });
    expect(parsed.lines.map((line) => line.line)).toEqual([2, 3]);
    expect(parsed.lines.map((line) => JSON.stringify(line.memory))).toEqual(lines);
    expect(parsed.lines[1]?.memory).toMatchObject({ scope: 'tenant', archived: true });
  });

  it('ignores blank lines and CRLF line ends but keeps line numbers', () => {
    const parsed = parseImport(`\r\n${header}\r\n\r\n${exportLine(memory(), [])}\r\n`, LIMITS);
    expect(parsed.lines[0]?.line).toBe(4);
  });

  it('reports every bad line with its number and path', () => {
    const good = JSON.parse(exportLine(memory(), [])) as Record<string, unknown>;
    const text = [
      header,
      '{not json',
      JSON.stringify({ ...good, id: ID_B, importance: 'high' }),
      JSON.stringify({ ...good, id: ID_B, isAdmin: true }),
      JSON.stringify({ ...good, content: 'x'.repeat(201) }),
      JSON.stringify({ ...good, archived: true }),
    ].join('\n');
    expect(errorsOf(text)).toEqual([
      { line: 2, path: '', message: 'not valid JSON' },
      { line: 3, path: 'importance', message: expect.any(String) },
      { line: 4, path: '', message: 'unknown field(s): isAdmin' },
      { line: 5, path: 'content', message: 'must be at most 200 characters' },
      { line: 6, path: 'archived', message: expect.stringContaining('archivedAt') },
    ]);
  });

  it('insists on a header first, a known version, unique ids and a bounded size', () => {
    const line = exportLine(memory(), []);
    expect(errorsOf(line)[0]).toMatchObject({ line: 1, path: 'header' });
    expect(errorsOf('')[0]).toMatchObject({ path: 'header', message: 'the file is empty' });
    expect(errorsOf(header.replace('"version":1', '"version":2'))[0]).toMatchObject({ path: 'header.version' });
    expect(errorsOf(`${header}\n${line}\n${line}`)).toEqual([
      { line: 3, path: 'id', message: 'duplicate id: also on line 2' },
    ]);
    const many = [1, 2, 3, 4, 5, 6].map((n) =>
      exportLine(memory({ id: `${n}1111111-1111-4111-8111-111111111111` }), []),
    );
    expect(errorsOf([header, ...many].join('\n'))).toEqual([
      { line: 7, path: '', message: 'at most 5 memories per import' },
    ]);
  });

  it('refuses self references', () => {
    const line = JSON.parse(exportLine(memory(), [])) as Record<string, unknown>;
    const text = [
      header,
      JSON.stringify({ ...line, supersededBy: ID_A }),
      JSON.stringify({ ...line, id: ID_B, relations: [{ toId: ID_B, type: 'related_to', note: null }] }),
    ].join('\n');
    expect(errorsOf(text).map((error) => [error.line, error.path])).toEqual([
      [2, 'supersededBy'],
      [3, 'relations'],
    ]);
  });
});
