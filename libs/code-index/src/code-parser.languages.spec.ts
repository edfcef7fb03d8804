import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CodeParser } from './code-parser.service';
import { type CodeSymbol, type ParsedFile } from './parsed-file';

/** Python, Go, Rust and Java through the real grammars (fixtures under libs/code-index/test/fixtures). */

const parser = new CodeParser();

async function parsedFixture(path: string, name: string): Promise<ParsedFile> {
  const content = readFileSync(join(__dirname, '..', 'test', 'fixtures', `${name}.txt`), 'utf8');
  const result = await parser.parse(path, content);
  if (!result) throw new Error(`${path} was not parsed`);
  expect(result.error).toBeUndefined();
  return result;
}

function only(file: ParsedFile, name: string, container: string | null = null): CodeSymbol {
  const found = file.symbols.filter((symbol) => symbol.name === name && symbol.container === container);
  expect(found).toHaveLength(1);
  return found[0];
}

/** `kind name` of every symbol, in file order: what the index would list. */
function outline(file: ParsedFile): string[] {
  return file.symbols.map((symbol) => `${symbol.kind} ${symbol.container ? `${symbol.container}.` : ''}${symbol.name}`);
}

function referenced(file: ParsedFile): string[] {
  return file.references.map((reference) => `${reference.name}@${reference.line}`);
}

describe('CodeParser: Python', () => {
  it('finds module constants, classes, methods and functions, private by a leading underscore', async () => {
    const file = await parsedFixture('jobs/runner.py', 'python-sample.py');
    expect(outline(file)).toEqual([
      'constant MAX_ATTEMPTS',
      'constant _cache',
      'class Job',
      'method Job.run',
      'method Job._reset',
      'function fetch_all',
      'function _private_helper',
    ]);
    expect(only(file, 'Job')).toEqual({
      name: 'Job',
      kind: 'class',
      startLine: 10, // the decorator on line 9 is not part of it
      endLine: 22,
      signature: 'class Job(BaseJob)',
      container: null,
      exported: true,
    });
    expect(only(file, 'run', 'Job')).toMatchObject({
      startLine: 15,
      endLine: 17,
      signature: 'def run(self, attempt: int) -> Optional[str]',
      exported: true,
    });
    expect(only(file, '_reset', 'Job').exported).toBe(false);
    expect(only(file, '_cache').exported).toBe(false);
    expect(only(file, 'fetch_all')).toMatchObject({
      signature: 'async def fetch_all(urls: list[str]) -> list[Job]',
      exported: true,
    });
    expect(referenced(file)).toEqual(
      expect.arrayContaining(['dataclass@9', 'BaseJob@10', 'Optional@15', 'compute@16', 'Job@26']),
    );
  });
});

describe('CodeParser: Go', () => {
  it('finds types by what they are, methods by their receiver, exported by a capital', async () => {
    const file = await parsedFixture('jobs/runner.go', 'go-sample.go');
    expect(outline(file)).toEqual([
      'constant MaxAttempts',
      'constant defaultName',
      'constant Timeout',
      'class Runner',
      'interface Store',
      'type JobID',
      'function NewRunner',
      'method Runner.Run',
      'method Runner.reset',
    ]);
    expect(only(file, 'Run', 'Runner')).toEqual({
      name: 'Run',
      kind: 'method',
      startLine: 30,
      endLine: 35,
      signature: 'func (r *Runner) Run(ctx context.Context, job *Job) error',
      container: 'Runner',
      exported: true,
    });
    expect(only(file, 'reset', 'Runner').exported).toBe(false);
    expect(only(file, 'defaultName')).toMatchObject({ signature: 'const defaultName = "job"', exported: false });
    expect(only(file, 'Runner')).toMatchObject({ startLine: 15, endLine: 18, signature: 'type Runner struct' });
    expect(only(file, 'Store')).toMatchObject({ signature: 'type Store interface' });
    expect(referenced(file)).toEqual(expect.arrayContaining(['Store@26', 'Save@31', 'Errorf@32', 'Context@30']));
    expect(referenced(file)).not.toContain('Runner@15');
  });
});

describe('CodeParser: Rust', () => {
  it('finds items, impl and trait methods with their type, exported by `pub`', async () => {
    const file = await parsedFixture('src/jobs.rs', 'rust-sample.rs');
    expect(outline(file)).toEqual([
      'constant MAX_ATTEMPTS',
      'constant COUNTER',
      'class Job',
      'enum Status',
      'type JobMap',
      'interface Runner',
      'method Runner.run',
      'method Job.new',
      'method Job.bump',
      'method Job.run',
      'function run_all',
      'module internal',
      'function internal.helper',
    ]);
    expect(only(file, 'Job')).toEqual({
      name: 'Job',
      kind: 'class',
      startLine: 7, // after #[derive]
      endLine: 10,
      signature: 'pub struct Job',
      container: null,
      exported: true,
    });
    expect(only(file, 'new', 'Job')).toMatchObject({ signature: 'pub fn new(name: &str) -> Self', exported: true });
    expect(only(file, 'bump', 'Job').exported).toBe(false);
    // A trait's methods are as visible as the trait, in its impls too.
    expect(file.symbols.filter((symbol) => symbol.name === 'run').map((symbol) => symbol.exported)).toEqual([
      true,
      true,
    ]);
    expect(only(file, 'COUNTER').exported).toBe(false);
    expect(only(file, 'helper', 'internal').exported).toBe(false); // pub, but inside a private module
    expect(referenced(file)).toEqual(expect.arrayContaining(['HashMap@17', 'Runner@33', 'println@35', 'new@41']));
  });
});

describe('CodeParser: Java', () => {
  it('finds classes, constructors, methods, enums, records and static final constants', async () => {
    const file = await parsedFixture('src/JobRunner.java', 'java-sample.java');
    expect(outline(file)).toEqual([
      'class JobRunner',
      'constant JobRunner.MAX_ATTEMPTS',
      'method JobRunner.JobRunner',
      'method JobRunner.run',
      'method JobRunner.reset',
      'enum JobRunner.Status',
      'interface Runner',
      'constant Runner.TIMEOUT',
      'method Runner.run',
      'class JobResult',
    ]);
    expect(only(file, 'JobRunner')).toEqual({
      name: 'JobRunner',
      kind: 'class',
      startLine: 6, // after @Service
      endLine: 25,
      signature: 'public class JobRunner implements Runner',
      container: null,
      exported: true,
    });
    expect(only(file, 'run', 'JobRunner')).toMatchObject({
      startLine: 15, // after @Override
      signature: 'public Status run(Job job) throws JobException',
      exported: true,
    });
    expect(only(file, 'reset', 'JobRunner').exported).toBe(false);
    expect(only(file, 'Runner').exported).toBe(false); // package-private
    expect(only(file, 'run', 'Runner').exported).toBe(false);
    expect(referenced(file)).toEqual(expect.arrayContaining(['Service@5', 'Runner@6', 'save@16', 'helper@21']));
  });
});
