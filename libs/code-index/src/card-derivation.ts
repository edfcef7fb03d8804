import { type ProjectCardContent } from '@cairn/project-card';
import { type CodeFileOutline, type CodeFileText } from './code-files.repository';

/** What the code index can say about a project: the card's sections (edited ones are kept by @cairn/project-card). */
type DerivedCard = ProjectCardContent;

/** Root files the derivation reads besides the outline. */
export const CARD_SOURCE_FILES = [
  'package.json',
  'tsconfig.json',
  'go.mod',
  'Cargo.toml',
  'pyproject.toml',
  'requirements.txt',
  'Makefile',
  'pom.xml',
  'build.gradle',
  'build.gradle.kts',
] as const;

const LANGUAGE_NAMES: Record<string, string> = {
  typescript: 'TypeScript',
  tsx: 'TypeScript (TSX)',
  javascript: 'JavaScript',
  python: 'Python',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
};

/** Dependencies that say what a JavaScript/TypeScript project is built with. */
const NPM_FRAMEWORKS: Record<string, string> = {
  '@nestjs/core': 'NestJS',
  fastify: 'Fastify',
  express: 'Express',
  react: 'React',
  vue: 'Vue',
  next: 'Next.js',
  svelte: 'Svelte',
  '@angular/core': 'Angular',
  typeorm: 'TypeORM',
  prisma: 'Prisma',
  pg: 'PostgreSQL (pg)',
  ioredis: 'Redis (ioredis)',
  bullmq: 'BullMQ',
  jest: 'Jest',
  vitest: 'Vitest',
  mocha: 'Mocha',
  '@playwright/test': 'Playwright',
  playwright: 'Playwright',
  '@modelcontextprotocol/sdk': 'MCP SDK',
  zod: 'Zod',
  vite: 'Vite',
  webpack: 'webpack',
};
const PYTHON_FRAMEWORKS = [
  'django',
  'flask',
  'fastapi',
  'pytest',
  'sqlalchemy',
  'pydantic',
  'numpy',
  'pandas',
  'torch',
];
const SCRIPT_ORDER = ['build', 'start', 'test', 'lint', 'typecheck', 'format', 'dev', 'bench', 'migrate'];
const ENTRY_NAMES = /(^|\/)(main\.(ts|js|go|rs|py)|index\.(ts|js)|__main__\.py|manage\.py|app\.py|lib\.rs|Main\.java)$/;

/**
 * The project card's sections from the index: languages and frameworks, directories with their
 * size, entry points, build and test commands, conventions visible in the tree, and the files
 * most other files depend on. Deterministic: the same index gives the same card.
 */
export function deriveCard(outline: readonly CodeFileOutline[], texts: readonly CodeFileText[]): DerivedCard {
  const root = new Map(texts.map((file) => [file.path, file.content]));
  const pkg = parseJson(root.get('package.json'));
  return {
    stack: stackOf(outline, pkg, root),
    layout: layoutOf(outline),
    entryPoints: entryPointsOf(outline, pkg),
    buildAndTest: commandsOf(pkg, root, outline),
    conventions: conventionsOf(outline, root),
    hotFiles: outline
      .filter((file) => file.referencedBy > 0)
      .sort((a, b) => b.referencedBy - a.referencedBy || a.path.localeCompare(b.path))
      .slice(0, 12)
      .map((file) => ({ path: file.path, why: `its exports are used by ${file.referencedBy} other files` })),
    notes: '',
  };
}

function stackOf(outline: readonly CodeFileOutline[], pkg: PackageJson | null, root: Map<string, string>): string[] {
  const byLanguage = new Map<string, number>();
  for (const file of outline) {
    if (file.language) byLanguage.set(file.language, (byLanguage.get(file.language) ?? 0) + 1);
  }
  const stack = [...byLanguage]
    .sort((a, b) => b[1] - a[1])
    .map(([language, files]) => `${LANGUAGE_NAMES[language] ?? language} (${files} files)`);
  const deps = { ...pkg?.dependencies, ...pkg?.devDependencies };
  for (const [name, label] of Object.entries(NPM_FRAMEWORKS)) if (name in deps) stack.push(label);
  if (pkg?.engines?.node) stack.push(`Node ${pkg.engines.node}`);
  const goVersion = /^go\s+(\S+)/m.exec(root.get('go.mod') ?? '')?.[1];
  if (goVersion) stack.push(`Go ${goVersion} module`);
  if (root.has('Cargo.toml')) stack.push('Cargo');
  const python = `${root.get('pyproject.toml') ?? ''}\n${root.get('requirements.txt') ?? ''}`.toLowerCase();
  for (const name of PYTHON_FRAMEWORKS) if (new RegExp(`\\b${name}\\b`).test(python)) stack.push(name);
  if (root.has('pom.xml')) stack.push('Maven');
  if (root.has('build.gradle') || root.has('build.gradle.kts')) stack.push('Gradle');
  if (outline.some((file) => /(^|\/)Dockerfile$/.test(file.path))) stack.push('Docker');
  if (outline.some((file) => /(^|\/)Chart\.yaml$/.test(file.path))) stack.push('Helm');
  return stack.slice(0, 30);
}

/** Top-level directories, and the second level of the big ones (apps/, libs/, src/ …). */
function layoutOf(outline: readonly CodeFileOutline[]): DerivedCard['layout'] {
  const dirs = new Map<string, CodeFileOutline[]>();
  const add = (dir: string, file: CodeFileOutline) => dirs.set(dir, [...(dirs.get(dir) ?? []), file]);
  for (const file of outline) {
    const parts = file.path.split('/');
    if (parts.length < 2) continue;
    add(`${parts[0]}/`, file);
    if (parts.length > 2) add(`${parts[0]}/${parts[1]}/`, file);
  }
  const total = Math.max(1, outline.length);
  return [...dirs]
    .filter(([dir, files]) => dir.split('/').length === 2 || files.length >= Math.max(5, total * 0.02))
    .sort((a, b) => a[0].localeCompare(b[0]))
    .slice(0, 60)
    .map(([path, files]) => ({ path, files: files.length, summary: summaryOf(files) }));
}

function summaryOf(files: readonly CodeFileOutline[]): string {
  const languages = new Map<string, number>();
  for (const file of files) if (file.language) languages.set(file.language, (languages.get(file.language) ?? 0) + 1);
  const main = [...languages].sort((a, b) => b[1] - a[1])[0];
  const central = [...files].sort((a, b) => b.referencedBy - a.referencedBy || b.symbols - a.symbols)[0];
  const parts = [main ? `mostly ${LANGUAGE_NAMES[main[0]] ?? main[0]}` : 'no parsed source'];
  if (central && central.symbols > 0) parts.push(`central file ${central.path}`);
  return parts.join('; ');
}

function entryPointsOf(outline: readonly CodeFileOutline[], pkg: PackageJson | null): DerivedCard['entryPoints'] {
  const found = new Map<string, string>();
  const paths = new Set(outline.map((file) => file.path));
  const normalise = (path: string) => path.replace(/^\.\//, '');
  if (pkg?.main && paths.has(normalise(pkg.main))) found.set(normalise(pkg.main), 'package.json "main"');
  const bins = typeof pkg?.bin === 'string' ? { [pkg.name ?? 'bin']: pkg.bin } : (pkg?.bin ?? {});
  for (const [name, path] of Object.entries(bins)) found.set(normalise(path), `command "${name}" (package.json "bin")`);
  for (const file of outline) {
    if (found.size >= 30) break;
    if (ENTRY_NAMES.test(file.path) && file.path.split('/').length <= 4 && !found.has(file.path)) {
      found.set(
        file.path,
        /main\.|__main__|manage\.py|app\.py|Main\.java/.test(file.path) ? 'program entry' : 'module entry',
      );
    }
  }
  return [...found].slice(0, 30).map(([path, why]) => ({ path, why }));
}

function commandsOf(
  pkg: PackageJson | null,
  root: Map<string, string>,
  outline: readonly CodeFileOutline[],
): DerivedCard['buildAndTest'] {
  const commands: DerivedCard['buildAndTest'] = [];
  const scripts = pkg?.scripts ?? {};
  const names = Object.keys(scripts).sort(
    (a, b) => rank(SCRIPT_ORDER, a) - rank(SCRIPT_ORDER, b) || a.localeCompare(b),
  );
  for (const name of names.slice(0, 15)) {
    const command = name === 'test' || name === 'start' ? `npm ${name}` : `npm run ${name}`;
    commands.push({ command, why: clip(scripts[name], 160) });
  }
  for (const target of (root.get('Makefile') ?? '').matchAll(/^([A-Za-z][\w-]*):/gm)) {
    if (commands.length >= 25) break;
    commands.push({ command: `make ${target[1]}`, why: 'Makefile target' });
  }
  if (root.has('go.mod')) {
    commands.push({ command: 'go build ./...', why: 'Go module' }, { command: 'go test ./...', why: 'Go tests' });
  }
  if (root.has('Cargo.toml')) {
    commands.push({ command: 'cargo build', why: 'Cargo' }, { command: 'cargo test', why: 'Cargo tests' });
  }
  if (outline.some((file) => /(^|\/)(test_[^/]+|[^/]+_test)\.py$/.test(file.path))) {
    commands.push({ command: 'pytest', why: 'Python tests (test_*.py)' });
  }
  if (root.has('pom.xml')) commands.push({ command: 'mvn test', why: 'Maven' });
  if (root.has('build.gradle') || root.has('build.gradle.kts'))
    commands.push({ command: './gradlew test', why: 'Gradle' });
  return commands.slice(0, 30);
}

function conventionsOf(outline: readonly CodeFileOutline[], root: Map<string, string>): string[] {
  const conventions: string[] = [];
  const has = (pattern: RegExp) => outline.some((file) => pattern.test(file.path));
  const count = (pattern: RegExp) => outline.filter((file) => pattern.test(file.path)).length;
  if (/"strict"\s*:\s*true/.test(root.get('tsconfig.json') ?? '')) conventions.push('TypeScript strict mode');
  if (has(/(^|\/)(\.eslintrc[^/]*|eslint\.config\.[cm]?[jt]s)$/)) conventions.push('ESLint');
  if (has(/(^|\/)\.prettierrc[^/]*$|(^|\/)prettier\.config\.[cm]?js$/)) conventions.push('Prettier formatting');
  if (has(/(^|\/)\.editorconfig$/)) conventions.push('EditorConfig');
  const tests: [RegExp, string][] = [
    [/\.spec\.[cm]?[jt]sx?$/, '*.spec.ts unit tests beside the code'],
    [/\.e2e-spec\.[jt]s$/, '*.e2e-spec.ts end-to-end tests'],
    [/\.test\.[cm]?[jt]sx?$/, '*.test.ts tests'],
    [/_test\.go$/, '*_test.go tests beside the code'],
    [/(^|\/)test_[^/]+\.py$/, 'test_*.py tests'],
  ];
  for (const [pattern, label] of tests) {
    const n = count(pattern);
    if (n > 0) conventions.push(`${label} (${n} files)`);
  }
  if (has(/^CONTRIBUTING\.md$/i)) conventions.push('CONTRIBUTING.md describes how to contribute');
  if (has(/^docs\//)) conventions.push('documentation under docs/');
  return conventions.slice(0, 30);
}

interface PackageJson {
  name?: string;
  main?: string;
  bin?: string | Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  engines?: { node?: string };
}

function parseJson(text: string | undefined): PackageJson | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

function rank(order: readonly string[], name: string): number {
  const i = order.indexOf(name);
  return i === -1 ? order.length : i;
}

function clip(text: unknown, max: number): string {
  const value = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  return value.length > max ? `${value.slice(0, max - 1)}…` : value;
}
