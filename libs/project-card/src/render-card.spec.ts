import { fitDerived, mergeDerived, sameContent } from './card-content';
import { projectCardChangesSchema, projectCardContentSchema } from './contract/project-card.dto';
import { EMPTY_CARD_CONTENT, type ProjectCardContent, type ProjectCardView } from './contract/project-card.types';
import { renderCard } from './render-card';

const content: ProjectCardContent = {
  stack: ['TypeScript (612 files)', 'NestJS', 'PostgreSQL'],
  layout: [
    { path: 'libs/', files: 412, summary: 'one library per capability' },
    { path: 'apps/', files: 120, summary: '' },
  ],
  entryPoints: [{ path: 'apps/api/src/main.ts', why: 'REST API' }],
  buildAndTest: [{ command: 'npm test', why: 'jest against PostgreSQL and Redis' }],
  conventions: ['only repositories touch the database'],
  hotFiles: [{ path: 'libs/memory/src/memories.repository.ts', why: 'most changes pass here' }],
  notes: 'Deploys go through Helm.',
};

const view = (overrides: Partial<ProjectCardView> = {}): ProjectCardView => ({
  project: 'web',
  version: 3,
  content,
  edited: ['notes'],
  derivedFrom: { branch: 'main', commit: '0123456789abcdef0123', at: '2026-03-01T10:00:00.000Z' },
  updatedAt: '2026-03-02T10:00:00.000Z',
  updatedBy: null,
  note: null,
  ...overrides,
});

describe('renderCard', () => {
  it('renders every section in order, empty ones left out', () => {
    expect(renderCard(view(), 10_000)).toBe(
      [
        'Project card of web, v3 (derived from main@0123456789ab on 2026-03-01; edited: notes)',
        'Stack: TypeScript (612 files), NestJS, PostgreSQL',
        'Layout:',
        '- libs/ (412 files): one library per capability',
        '- apps/ (120 files)',
        'Entry points:',
        '- apps/api/src/main.ts: REST API',
        'Build and test:',
        '- `npm test`: jest against PostgreSQL and Redis',
        'Conventions:',
        '- only repositories touch the database',
        'Hot files:',
        '- libs/memory/src/memories.repository.ts: most changes pass here',
        'Notes:',
        'Deploys go through Helm.',
      ].join('\n'),
    );
  });

  it('says when there is no card yet', () => {
    const empty = view({ version: 0, content: EMPTY_CARD_CONTENT, edited: [], derivedFrom: null });
    expect(renderCard(empty, 1_000)).toBe('Project card of web: none yet.');
  });

  it('cuts the longest lists first, saying how many items it left out, within maxChars', () => {
    const many = {
      ...content,
      layout: Array.from({ length: 40 }, (_, i) => ({ path: `dir${i}/`, files: i, summary: 'x'.repeat(40) })),
      conventions: Array.from({ length: 10 }, (_, i) => `rule ${i}`),
      notes: 'n'.repeat(3_000),
    };
    const text = renderCard(view({ content: many }), 1_500);
    expect(text.length).toBeLessThanOrEqual(1_500);
    expect(text).toMatch(/- … \d+ more/);
    expect(text).toContain('- dir0/ (0 files)');
    expect(text).not.toContain('- dir39/');
    // The stack and entry points are short: they are kept whole.
    expect(text).toContain('Stack: TypeScript (612 files), NestJS, PostgreSQL');
    expect(text).toContain('- apps/api/src/main.ts: REST API');
    // Notes are shortened to a quarter of the room before lists lose more.
    expect(text).toMatch(/Notes:\nn{300,375}…/);
    // Deterministic.
    expect(renderCard(view({ content: many }), 1_500)).toBe(text);
  });

  it('never exceeds maxChars, however small', () => {
    for (const max of [0, 1, 10, 60, 200, 400]) {
      expect(renderCard(view(), max).length).toBeLessThanOrEqual(max);
    }
  });

  it('cuts the stack inline', () => {
    const stack = Array.from({ length: 30 }, (_, i) => `Language ${i} (${i} files)`);
    const text = renderCard(view({ content: { ...EMPTY_CARD_CONTENT, stack } }), 300);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/^Stack: Language 0 \(0 files\), .*, … \d+ more$/m);
  });
});

describe('card content', () => {
  it('keeps edited sections when merging derived content', () => {
    const derived = { ...content, notes: 'derived notes', stack: ['Go'] };
    const merged = mergeDerived(content, ['notes'], derived);
    expect(merged.notes).toBe('Deploys go through Helm.');
    expect(merged.stack).toEqual(['Go']);
  });

  it('compares content whatever the key order', () => {
    const reordered = Object.fromEntries(Object.entries(content).reverse()) as unknown as ProjectCardContent;
    expect(sameContent(content, reordered)).toBe(true);
    expect(sameContent(content, { ...content, notes: 'other' })).toBe(false);
  });

  it('fits derived content to the limits instead of refusing it', () => {
    const fitted = fitDerived({
      ...content,
      stack: Array.from({ length: 50 }, (_, i) => `${'s'.repeat(250)}${i}`),
      layout: [{ path: '  ', files: 3, summary: '' }, ...content.layout],
      notes: 'n'.repeat(5_000),
    });
    expect(fitted.stack).toHaveLength(30);
    expect(fitted.stack[0]).toHaveLength(200);
    expect(fitted.layout.map((item) => item.path)).toEqual(['libs/', 'apps/']);
    expect(fitted.notes).toHaveLength(4_000);
  });

  it('refuses unknown sections, oversized lists and wrong types in edits', () => {
    expect(projectCardChangesSchema.safeParse({ bogus: [] }).success).toBe(false);
    expect(projectCardChangesSchema.safeParse({}).success).toBe(false);
    expect(projectCardChangesSchema.safeParse({ stack: Array(31).fill('x') }).success).toBe(false);
    expect(projectCardChangesSchema.safeParse({ notes: 5 }).success).toBe(false);
    expect(projectCardChangesSchema.safeParse({ layout: [{ path: 'a', files: -1, summary: '' }] }).success).toBe(false);
    expect(projectCardContentSchema.safeParse(content).success).toBe(true);
    const parsed = projectCardChangesSchema.parse({ conventions: ['  one\n rule\u0007 '] });
    expect(parsed.conventions).toEqual(['one rule']);
  });
});
