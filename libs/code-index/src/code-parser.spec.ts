import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CodeParser } from './code-parser.service';
import { languageOf } from './languages';
import { MAX_PARSE_BYTES, MAX_REFERENCES } from './parsed-file';
import { extractTags } from './tag-extractor';
import { loadGrammar } from './tree-sitter-runtime';

/** What every language shares: which files are parsed, broken and extreme input, one load per process. */

const ROOT = join(__dirname, '..', '..', '..');
const parser = new CodeParser();

describe('languageOf', () => {
  it('knows each language by its extensions, whatever their case or the folders', () => {
    expect(languageOf('src/a.ts')).toBe('typescript');
    expect(languageOf('types/index.d.ts')).toBe('typescript');
    expect(languageOf('a.mts')).toBe('typescript');
    expect(languageOf('a.tsx')).toBe('tsx');
    expect(['a.js', 'a.jsx', 'a.mjs', 'a.cjs'].map(languageOf)).toEqual(Array(4).fill('javascript'));
    expect(languageOf('C:\\src\\Main.JAVA')).toBe('java');
    expect(languageOf('pkg/main.go')).toBe('go');
    expect(languageOf('src/lib.rs')).toBe('rust');
    expect(languageOf('app/models.py')).toBe('python');
    expect(languageOf('README.md')).toBeNull();
    expect(languageOf('Makefile')).toBeNull();
    expect(languageOf('src.ts/notes')).toBeNull();
    expect(languageOf('a.constructor')).toBeNull(); // no prototype lookups
  });
});

describe('CodeParser', () => {
  it('returns null for a file whose language it does not parse', async () => {
    await expect(parser.parse('notes.md', '# Title\n')).resolves.toBeNull();
  });

  it('returns nothing, and no error, for an empty file', async () => {
    await expect(parser.parse('empty.ts', '')).resolves.toEqual({
      language: 'typescript',
      symbols: [],
      references: [],
    });
    await expect(parser.parse('empty.py', '\n\n')).resolves.toEqual({
      language: 'python',
      symbols: [],
      references: [],
    });
  });

  it('still finds the symbols around a syntax error', async () => {
    const typescript = await parser.parse(
      'broken.ts',
      [
        'export function before(a: number): number {',
        '  return a +;',
        '}',
        '',
        'export class Survivor {',
        '  run(): void {}',
        '}',
      ].join('\n'),
    );
    expect(typescript?.error).toBeUndefined();
    expect(typescript?.symbols.map((symbol) => `${symbol.name}:${symbol.startLine}-${symbol.endLine}`)).toEqual([
      'before:1-3',
      'Survivor:5-7',
      'run:6-6',
    ]);
    const python = await parser.parse(
      'broken.py',
      'def ok():\n    return 1\n\ndef broken(:\n    pass\n\nclass After:\n    pass\n',
    );
    expect(python?.symbols.map((symbol) => symbol.name)).toEqual(expect.arrayContaining(['ok', 'After']));
  });

  it('reads a minified bundle on one line, capping its references', async () => {
    const bundle = Array.from({ length: 12_000 }, (_, i) => `function a${i}(b){return c${i}(b)+1};var x${i}=a${i}(1);`);
    const content = bundle.join('');
    expect(content.length).toBeLessThan(MAX_PARSE_BYTES);
    const result = await parser.parse('dist/bundle.min.js', content);
    expect(result?.language).toBe('javascript');
    // Within the time limit it is read whole; past it, it says so instead of hanging.
    if (result?.error) expect(result.error).toMatch(/timed out/);
    else expect(result?.symbols).toHaveLength(12_000);
    expect(result?.references.length).toBeLessThanOrEqual(MAX_REFERENCES);
  });

  it('gives up past its deadline with an error, and the parser reads the next file as usual', async () => {
    const grammar = await loadGrammar('javascript');
    const bundle = Array.from({ length: 2_000 }, (_, i) => `function a${i}(b){return c${i}(b)+1};`).join('');
    expect(extractTags(grammar, bundle, performance.now() - 1)).toEqual({
      language: 'javascript',
      symbols: [],
      references: [],
      error: 'parsing timed out',
    });
    const next = await parser.parse('next.js', 'function next() {}');
    expect(next?.symbols.map((symbol) => symbol.name)).toEqual(['next']);
  });

  it('returns for pathological nesting', async () => {
    const result = await parser.parse('deep.js', `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(result?.symbols).toEqual([]);
  });

  it('refuses a file over MAX_PARSE_BYTES with an error rather than reading it', async () => {
    const result = await parser.parse('data.ts', `export const a = '${'é'.repeat(MAX_PARSE_BYTES / 2)}';`);
    expect(result).toEqual({
      language: 'typescript',
      symbols: [],
      references: [],
      error: expect.stringMatching(/bytes/),
    });
  });

  it('loads the runtime once and each grammar once for concurrent first callers', async () => {
    // A fresh module registry: this file's parser has loaded them already.
    await jest.isolateModulesAsync(async () => {
      const treeSitter = await import('web-tree-sitter');
      const init = jest.spyOn(treeSitter.Parser, 'init');
      const load = jest.spyOn(treeSitter.Language, 'load');
      const { CodeParser: FreshParser } = await import('./code-parser.service');
      const fresh = new FreshParser();
      const paths = ['a.ts', 'b.py', 'c.ts', 'd.py', 'e.ts', 'f.go'];
      const results = await Promise.all(paths.map((path) => fresh.parse(path, 'x = 1\n')));
      expect(results.map((result) => result?.language)).toEqual([
        'typescript',
        'python',
        'typescript',
        'python',
        'typescript',
        'go',
      ]);
      expect(results.every((result) => result?.error === undefined)).toBe(true);
      expect(init).toHaveBeenCalledTimes(1);
      expect(load).toHaveBeenCalledTimes(3);
    });
  });

  it("reads every TypeScript file of this repository's libraries without error", async () => {
    const files = readdirSync(join(ROOT, 'libs'), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => join(ROOT, 'libs', path));
    expect(files.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const file of files) {
      const result = await parser.parse(file, readFileSync(file, 'utf8'));
      if (!result || result.error) failures.push(`${relative(ROOT, file)}: ${result?.error ?? 'not parsed'}`);
    }
    expect(failures).toEqual([]);

    const self = await parser.parse(
      'code-parser.service.ts',
      readFileSync(join(__dirname, 'code-parser.service.ts'), 'utf8'),
    );
    expect(self?.symbols).toEqual([
      expect.objectContaining({ name: 'CodeParser', kind: 'class', container: null, exported: true }),
      expect.objectContaining({
        name: 'parse',
        kind: 'method',
        container: 'CodeParser',
        signature: 'async parse(path: string, content: string): Promise<ParsedFile | null>',
      }),
    ]);
    expect(self?.references).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Injectable' })]));
  });
});
