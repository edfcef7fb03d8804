import { deriveCard } from './card-derivation';
import { type CodeFileOutline } from './code-files.repository';

const file = (path: string, language: string | null, extra: Partial<CodeFileOutline> = {}): CodeFileOutline => ({
  path,
  language,
  size: 100,
  lineCount: 10,
  symbols: 1,
  exported: 1,
  referencedBy: 0,
  ...extra,
});

describe('deriveCard', () => {
  const outline = [
    file('package.json', null),
    file('src/main.ts', 'typescript'),
    file('src/app.service.ts', 'typescript', { referencedBy: 7 }),
    file('src/app.service.spec.ts', 'typescript'),
    file('tools/build.py', 'python'),
    file('.eslintrc.json', null),
    file('docs/guide.md', null),
  ];
  const pkg = {
    path: 'package.json',
    contentHash: 'x',
    commit: null,
    content: JSON.stringify({
      main: './src/main.ts',
      scripts: { lint: 'eslint .', test: 'jest', build: 'tsc -p .' },
      dependencies: { '@nestjs/core': '11' },
      devDependencies: { jest: '30' },
      engines: { node: '>=20' },
    }),
  };
  const card = deriveCard(outline, [pkg, { ...pkg, path: 'tsconfig.json', content: '{ "strict": true }' }]);

  it('names languages by file count and the frameworks the manifests declare', () => {
    expect(card.stack).toEqual(['TypeScript (3 files)', 'Python (1 files)', 'NestJS', 'Jest', 'Node >=20']);
  });

  it('lists build and test commands in a useful order, with what they run', () => {
    expect(card.buildAndTest.slice(0, 3)).toEqual([
      { command: 'npm run build', why: 'tsc -p .' },
      { command: 'npm test', why: 'jest' },
      { command: 'npm run lint', why: 'eslint .' },
    ]);
  });

  it('finds entry points, layout, conventions and the files others depend on', () => {
    expect(card.entryPoints[0]).toEqual({ path: 'src/main.ts', why: 'package.json "main"' });
    expect(card.layout.map((entry) => entry.path)).toEqual(['docs/', 'src/', 'tools/']);
    expect(card.layout[1]).toMatchObject({ files: 3, summary: 'mostly TypeScript; central file src/app.service.ts' });
    expect(card.conventions).toEqual(
      expect.arrayContaining(['TypeScript strict mode', 'ESLint', '*.spec.ts unit tests beside the code (1 files)']),
    );
    expect(card.hotFiles).toEqual([{ path: 'src/app.service.ts', why: 'its exports are used by 7 other files' }]);
  });

  it('is deterministic and survives a broken package.json', () => {
    expect(deriveCard(outline, [{ ...pkg, content: '{ not json' }]).buildAndTest).toEqual([]);
    expect(deriveCard(outline, [pkg])).toEqual(deriveCard(outline, [pkg]));
  });
});
