import {
  type Author,
  AUTHORS,
  PROJECTS,
  SCOPE_MIX,
  scopePlan,
  SHARES,
  VIEWER,
  VIEWER_PROJECT,
  visibleTo,
  type ScopePlan,
} from './scopes-plan';

const authors: Author[] = Array.from({ length: AUTHORS }, (_, i) =>
  i < 14
    ? { userId: null, agentId: `agent-${i}`, tokenId: `token-${i}` }
    : { userId: `user-${i}`, agentId: null, tokenId: `token-${i}` },
);

describe('scope benchmark plan', () => {
  const plan = scopePlan(100_000);

  it('spreads memories evenly over the projects, every author writing, in the stated scope mix', () => {
    const perProject = new Array<number>(PROJECTS).fill(0);
    const perAuthor = new Array<number>(AUTHORS).fill(0);
    const perScope: Record<string, number> = {};
    for (const m of plan.memories) {
      perProject[m.project] = (perProject[m.project] ?? 0) + 1;
      perAuthor[m.author] = (perAuthor[m.author] ?? 0) + 1;
      perScope[m.scope] = (perScope[m.scope] ?? 0) + 1;
    }
    expect(new Set(perProject)).toEqual(new Set([2_000]));
    for (const count of perAuthor) expect(count).toBeGreaterThan(4_500);
    for (const [scope, share] of Object.entries(SCOPE_MIX)) {
      expect(Math.abs((perScope[scope] ?? 0) / 100_000 - share)).toBeLessThan(0.01);
    }
  });

  it('is the same plan every time, and a smaller size is a prefix of a larger one', () => {
    expect(scopePlan(2_000).memories).toEqual(plan.memories.slice(0, 2_000));
    expect(scopePlan(100_000)).toEqual(plan);
  });

  it('shares private memories only, never with their own author and never twice', () => {
    expect(plan.shares).toHaveLength(SHARES);
    const keys = new Set(plan.shares.map((s) => `${s.memory}:${s.grantee}`));
    expect(keys.size).toBe(SHARES);
    for (const share of plan.shares) {
      const memory = plan.memories[share.memory];
      expect(memory?.scope).toBe('private');
      expect(memory?.author).not.toBe(share.grantee);
    }
  });

  it('leaves some private memories of the viewer project hidden from the viewer, and shares others with it', () => {
    const visible = visibleTo(plan, authors, () => []);
    const theirs = plan.memories.flatMap((m, i) =>
      m.scope === 'private' && m.project === VIEWER_PROJECT && m.author !== VIEWER ? [i] : [],
    );
    const shown = theirs.filter((i) => visible[i]).length;
    expect(shown).toBeGreaterThan(100);
    expect(theirs.length - shown).toBeGreaterThan(300);
  });
});

describe('visibleTo', () => {
  const memory = (project: number, author: number, scope: 'private' | 'project' | 'team') => ({
    project,
    author,
    scope,
  });
  const tiny = (overrides: Partial<ScopePlan>): ScopePlan => ({ memories: [], shares: [], rules: [], ...overrides });

  it('hides other projects and others’ private memories, shows team ones and the viewer’s own', () => {
    const plan = tiny({
      memories: [
        memory(VIEWER_PROJECT, 3, 'project'),
        memory(1, 3, 'project'),
        memory(1, 3, 'team'),
        memory(VIEWER_PROJECT, 3, 'private'),
        memory(VIEWER_PROJECT, VIEWER, 'private'),
        memory(1, VIEWER, 'private'),
      ],
    });
    expect(visibleTo(plan, authors, () => [])).toEqual([true, false, true, false, true, false]);
  });

  it('honours a share and a tag rule of the memory’s author, within the rule’s project', () => {
    const plan = tiny({
      memories: [
        memory(VIEWER_PROJECT, 3, 'private'),
        memory(VIEWER_PROJECT, 4, 'private'),
        memory(VIEWER_PROJECT, 5, 'private'),
        memory(VIEWER_PROJECT, 4, 'private'),
      ],
      shares: [{ memory: 0, grantee: VIEWER }],
      rules: [
        { owner: 4, grantee: VIEWER, tag: 'incident', project: VIEWER_PROJECT },
        { owner: 5, grantee: VIEWER, tag: 'incident', project: 1 },
      ],
    });
    const tags = (i: number) => (i === 3 ? ['todo'] : ['incident']);
    expect(visibleTo(plan, authors, tags)).toEqual([true, true, false, false]);
  });

  it('matches a person’s memories by user across their tokens, a service agent’s by agent id', () => {
    const sameUserOtherToken: Author[] = authors.map((a, i) =>
      i === 15 ? { userId: 'user-14', agentId: null, tokenId: 'token-x' } : a,
    );
    const plan = tiny({ memories: [memory(VIEWER_PROJECT, 15, 'private')] });
    expect(visibleTo(plan, sameUserOtherToken, () => [], 14)).toEqual([true]);
    expect(visibleTo(plan, authors, () => [], 14)).toEqual([false]);
  });
});
