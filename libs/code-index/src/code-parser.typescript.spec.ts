import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeParser } from './code-parser.service';
import { type CodeSymbol, type ParsedFile } from './parsed-file';

/** TypeScript, TSX and JavaScript through the real grammars (fixtures under libs/code-index/test/fixtures). */

const parser = new CodeParser();

function fixture(name: string): string {
  return readFileSync(join(__dirname, '..', 'test', 'fixtures', `${name}.txt`), 'utf8');
}

async function parsed(path: string, content: string): Promise<ParsedFile> {
  const result = await parser.parse(path, content);
  if (!result) throw new Error(`${path} was not parsed`);
  expect(result.error).toBeUndefined();
  return result;
}

function symbolsNamed(file: ParsedFile, name: string): CodeSymbol[] {
  return file.symbols.filter((symbol) => symbol.name === name);
}

function only(file: ParsedFile, name: string, container: string | null = null): CodeSymbol {
  const found = symbolsNamed(file, name).filter((symbol) => symbol.container === container);
  expect(found).toHaveLength(1);
  return found[0];
}

function referenced(file: ParsedFile): string[] {
  return file.references.map((reference) => `${reference.name}@${reference.line}`);
}

describe('CodeParser: TypeScript', () => {
  let file: ParsedFile;
  beforeAll(async () => {
    file = await parsed('src/jobs/job-runner.ts', fixture('typescript-sample.ts'));
  });

  it('finds classes, their members, interfaces, types, enums and exported constants', () => {
    expect(only(file, 'JobRunner')).toEqual({
      name: 'JobRunner',
      kind: 'class',
      startLine: 22,
      endLine: 42,
      signature: 'export class JobRunner<T extends Job> implements JobStore',
      container: null,
      exported: true,
    });
    expect(only(file, 'find', 'JobRunner')).toEqual({
      name: 'find',
      kind: 'method',
      startLine: 27,
      endLine: 29,
      signature: 'async find(id: JobId): Promise<Job | null>',
      container: 'JobRunner',
      exported: true,
    });
    expect(only(file, 'drain', 'JobRunner')).toMatchObject({ kind: 'method', exported: false });
    expect(only(file, 'onDone', 'JobRunner')).toMatchObject({
      kind: 'method',
      signature: 'onDone = (job: T): void =>',
    });
    expect(only(file, 'JobStore')).toMatchObject({ kind: 'interface', startLine: 12, endLine: 15, exported: true });
    expect(only(file, 'save', 'JobStore')).toMatchObject({
      kind: 'method',
      signature: 'save(job: Job): Promise<void>',
    });
    expect(only(file, 'JobId')).toMatchObject({
      kind: 'type',
      signature: "export type JobId = string & { readonly brand: 'JobId' }",
    });
    expect(only(file, 'JobStatus')).toMatchObject({ kind: 'enum', startLine: 5, endLine: 8 });
    expect(only(file, 'MAX_ATTEMPTS')).toMatchObject({ kind: 'constant', signature: 'export const MAX_ATTEMPTS = 5' });
    expect(only(file, 'retryDelay')).toMatchObject({
      kind: 'function',
      signature: 'export const retryDelay = (attempt: number): number =>',
    });
  });

  it('collapses multi-line signatures, keeps overloads and leaves out locals', () => {
    expect(only(file, 'Job')).toMatchObject({ kind: 'class', signature: 'export abstract class Job' });
    expect(only(file, 'run', 'Job')).toMatchObject({
      kind: 'method',
      startLine: 45,
      endLine: 48,
      signature: 'abstract run( input: string, attempt: number, ): Promise<JobStatus>',
    });
    expect(symbolsNamed(file, 'parse').map((symbol) => [symbol.startLine, symbol.signature])).toEqual([
      [51, 'export function parse(path: string): JobId'],
      [52, 'export function parse(path: string, strict: boolean): JobId'],
      [53, 'export function parse(path: string, strict = false): JobId'],
    ]);
    expect(symbolsNamed(file, 'local')).toEqual([]);
    expect(symbolsNamed(file, 'nested')).toEqual([]);
    expect(symbolsNamed(file, 'internal')).toEqual([]); // a constant, but not exported
  });

  it('counts `export { name }` as an export', () => {
    expect(only(file, 'validate')).toMatchObject({ kind: 'function', startLine: 59, exported: true });
  });

  it('lists calls, `new`, decorators and type references, but not the declared names', () => {
    const names = referenced(file);
    expect(names).toEqual(
      expect.arrayContaining([
        'Injectable@21',
        'Job@22', // the type parameter's bound
        'JobStore@22',
        'Repository@25',
        'findOne@28',
        'validate@32',
        'insert@32',
        'TypeError@60',
        'min@19',
      ]),
    );
    expect(names).not.toContain('JobRunner@22');
    expect(names).not.toContain('T@22'); // declared there, by the type parameter
    expect(names).not.toContain('JobStatus@5');
  });
});

describe('CodeParser: TSX', () => {
  it('finds components and the components they render, not HTML elements', async () => {
    const file = await parsed('web/counter.tsx', fixture('tsx-sample.tsx'));
    expect(file.language).toBe('tsx');
    expect(only(file, 'CounterProps')).toMatchObject({ kind: 'interface', exported: false, startLine: 4, endLine: 7 });
    expect(only(file, 'Counter')).toMatchObject({
      kind: 'function',
      exported: true,
      signature: 'export function Counter({ initial, label }: CounterProps)',
    });
    expect(only(file, 'App')).toMatchObject({
      signature: 'export default function App(): JSX.Element',
      exported: true,
    });
    const names = referenced(file);
    expect(names).toEqual(
      expect.arrayContaining(['useState@10', 'Button@13', 'Plus@14', 'Counter@20', 'CounterProps@9']),
    );
    expect(names.some((name) => name.startsWith('div@'))).toBe(false);
  });
});

describe('CodeParser: JavaScript', () => {
  it('reads JSX, classes with fields and exported constants', async () => {
    const file = await parsed('web/widget.jsx', fixture('javascript-sample.jsx'));
    expect(file.language).toBe('javascript');
    expect(only(file, 'VERSION')).toMatchObject({ kind: 'constant', exported: true });
    expect(only(file, 'greet')).toEqual({
      name: 'greet',
      kind: 'function',
      startLine: 6,
      endLine: 8,
      signature: 'export function greet(name)',
      container: null,
      exported: true,
    });
    expect(only(file, 'Widget')).toMatchObject({ kind: 'class', signature: 'export class Widget extends Base' });
    expect(only(file, 'draw', 'Widget')).toMatchObject({ kind: 'method', startLine: 17, endLine: 19 });
    expect(only(file, 'handle', 'Widget')).toMatchObject({ kind: 'method' });
    expect(only(file, 'format')).toMatchObject({ kind: 'function', exported: false });
    expect(only(file, 'helper')).toMatchObject({ kind: 'function', signature: 'const helper = function ()' });
    expect(referenced(file)).toEqual(
      expect.arrayContaining(['format@7', 'Base@10', 'Panel@18', 'render@18', 'Map@31']),
    );
  });

  it('reads CommonJS (.cjs) and ES modules (.mjs)', async () => {
    const commonJs = await parsed(
      'lib/run.cjs',
      'exports.run = function run() {}\nmodule.exports.stop = () => {}\nfunction local() {}\nconst x = require("x");\n',
    );
    expect(commonJs.symbols.map((symbol) => [symbol.name, symbol.exported])).toEqual([
      ['run', true],
      ['stop', true],
      ['local', false],
    ]);
    expect(referenced(commonJs)).not.toContain('require@4');
    const esModule = await parsed('lib/run.mjs', 'export default class Task {}\nexport async function* items() {}\n');
    expect(esModule.symbols.map((symbol) => [symbol.name, symbol.kind, symbol.exported])).toEqual([
      ['Task', 'class', true],
      ['items', 'function', true],
    ]);
  });
});
