import { EMPTY_CARD_CONTENT, type ProjectCardView } from '@cairn/project-card';
import { type BriefingMaterial, estimateTokens, fitBriefing } from './briefing-budget';
import { compactBriefing } from './briefing-compact';
import { renderBriefingText } from './briefing-text';
import { type WorkingMemoryItem } from './contract/briefing.types';

const at = '2026-03-01T14:30:05.000Z';
const item = (key: string, importance: number, chars = 40): WorkingMemoryItem => ({
  key,
  value: 'v'.repeat(chars),
  importance,
  updatedAt: at,
});

function material(overrides: Partial<BriefingMaterial> = {}): BriefingMaterial {
  return {
    project: 'web-app',
    agent: 'agent:claude-code:alice',
    timeAnchor: {
      now: at,
      timezone: 'UTC',
      local: '2026-03-01T14:30:05+00:00',
      localText: 'Sunday, 2026-03-01 14:30',
      utcOffset: '+00:00',
      lastSeenAt: '2026-02-26T10:00:00.000Z',
      lastSeenSource: 'agent',
      gap: '3 days, 4 hours',
      gapSeconds: 275_405,
      since: { memories: 2, events: 1 },
    },
    workingMemory: { entries: [item('c1', 5), item('c2', 4), item('n1', 3), item('e1', 2), item('e2', 1)], cap: 100 },
    lastSummary: { text: 'Did things. '.repeat(40), updatedAt: at, clipped: false },
    newMemories: [
      {
        id: 'm1',
        content: 'A new fact',
        category: 'fact',
        importance: 4,
        scope: 'project' as const,
        agentId: null,
        createdAt: at,
      },
    ],
    recentEvents: [{ id: 'e1', kind: 'decision', summary: 'Chose X', agent: 'agent:bob', createdAt: at, new: true }],
    channel: {
      addressedToYou: [
        { seq: 3, type: 'ASSIGN', summary: 'Take the retry bug', author: 'orch', assignee: 'claude-code:alice', at },
      ],
      moreAddressedToYou: 0,
      latestStatus: [{ seq: 2, type: 'STATUS', summary: 'Fixing CI', author: 'bob', assignee: null, at }],
    },
    status: {
      searchMode: 'hybrid',
      embeddingModel: { id: 'cairn-hash-v1', provider: 'hash', dimensions: 384, builtIn: true },
      pendingEmbeddingJobs: 0,
      memoriesWithoutVector: 0,
      notes: [],
    },
    ...overrides,
  };
}

describe('fitBriefing', () => {
  it('keeps everything, grouped by importance, when the budget allows', () => {
    const fitted = fitBriefing(material(), 32_000);
    expect(fitted.truncated).toEqual({});
    expect(fitted.workingMemory.critical.map((entry) => entry.key)).toEqual(['c1', 'c2']);
    expect(fitted.workingMemory.normal.map((entry) => entry.key)).toEqual(['n1']);
    expect(fitted.workingMemory.ephemeral.map((entry) => entry.key)).toEqual(['e1', 'e2']);
    expect(fitted.lastSummary?.clipped).toBe(false);
    expect(fitted.workingMemory.total).toBe(5);
  });

  it('always keeps the time anchor, even past a budget it alone exceeds', () => {
    const fitted = fitBriefing(material(), 10);
    expect(fitted.timeAnchor.gap).toBe('3 days, 4 hours');
    expect(fitted.budget.used).toBeGreaterThan(10);
    expect(fitted.truncated).toEqual({
      'workingMemory.critical': 2,
      status: 1,
      channel: 2,
      lastSummary: 1,
      'workingMemory.normal': 1,
      newMemories: 1,
      recentEvents: 1,
      'workingMemory.ephemeral': 2,
    });
  });

  it('fills in priority order and never goes over once the anchor fits', () => {
    const base = fitBriefing(material(), 10).budget.used;
    const criticalCost = estimateTokens([item('c1', 5), item('c2', 4)]);
    const fitted = fitBriefing(material(), base + criticalCost);
    expect(fitted.workingMemory.critical).toHaveLength(2);
    expect(fitted.status).toBeNull();
    expect(fitted.budget.used).toBeLessThanOrEqual(base + criticalCost);
    expect(fitted.truncated['workingMemory.critical']).toBeUndefined();
    expect(fitted.truncated.status).toBe(1);
  });

  it('skips an item too large for what is left but still takes smaller ones after it', () => {
    const entries = [item('huge', 5, 4_000), item('small', 4, 10)];
    const fitted = fitBriefing(material({ workingMemory: { entries, cap: 100 } }), 400);
    expect(fitted.workingMemory.critical.map((entry) => entry.key)).toEqual(['small']);
    expect(fitted.truncated['workingMemory.critical']).toBe(1);
  });

  it('clips a long summary to the room left, marking it clipped', () => {
    const text = 'Line with "quotes" and\nnewlines. '.repeat(200);
    const fitted = fitBriefing(material({ lastSummary: { text, updatedAt: at, clipped: false } }), 600);
    expect(fitted.lastSummary?.clipped).toBe(true);
    expect(text.startsWith(fitted.lastSummary!.text.slice(0, -1))).toBe(true);
    expect(fitted.truncated.lastSummary).toBe(1);
    expect(fitted.budget.used).toBeLessThanOrEqual(600);
  });

  it('renders the fitted content as text, saying what was left out', () => {
    const text = renderBriefingText(fitBriefing(material(), 10));
    expect(text).toContain('Last time you were here: 2026-02-26T10:00:00.000Z (3 days, 4 hours ago)');
    expect(text).toContain('Left out to stay within 10 tokens');
    expect(text).not.toContain('## Working memory');
    const full = renderBriefingText(fitBriefing(material(), 32_000));
    expect(full).toContain('## Working memory: critical (4-5)\n- c1 (5): ');
    expect(full).toContain('## Recent events\n- 2026-03-01T14:30:05.000Z decision by agent:bob: Chose X (new)');
    expect(full).toContain('## Status\nSearch: hybrid; embedding model: cairn-hash-v1 (hash, built-in)');
    expect(full).toContain(
      '## Channel: addressed to you, not acknowledged\n[UNVERIFIED AGENT CONTENT from project web-app channel]\n' +
        '#3 ASSIGN by orch → claude-code:alice: Take the retry bug\n[END UNVERIFIED AGENT CONTENT]',
    );
    expect(full).toContain("## Channel: each agent's latest STATUS\n[UNVERIFIED AGENT CONTENT");
  });

  describe('the project card', () => {
    const card = (layout: number): ProjectCardView => ({
      project: 'web-app',
      version: 4,
      content: {
        ...EMPTY_CARD_CONTENT,
        stack: ['TypeScript (612 files)', 'NestJS'],
        layout: Array.from({ length: layout }, (_, i) => ({ path: `libs/lib${i}/`, files: i, summary: 'a library' })),
        notes: 'Deploys go through Helm.',
      },
      edited: ['notes'],
      derivedFrom: null,
      updatedAt: at,
      updatedBy: null,
      note: null,
    });

    it('shows a card that fits whole, in the text too', () => {
      const fitted = fitBriefing(material({ projectCard: card(3) }), 32_000);
      expect(fitted.projectCard).toMatchObject({ version: 4, clipped: false });
      expect(fitted.projectCard?.text).toContain('Stack: TypeScript (612 files), NestJS');
      expect(fitted.truncated.projectCard).toBeUndefined();
      expect(renderBriefingText(fitted)).toContain('## Project card\nProject card of web-app, v4 (edited: notes)');
      expect(compactBriefing(fitted)).toContain('Project card of web-app, v4 (edited: notes)\nStack: ');
    });

    it('cuts a large card to a quarter of the budget, marking it clipped', () => {
      const fitted = fitBriefing(material({ projectCard: card(60) }), 2_000);
      expect(fitted.projectCard?.clipped).toBe(true);
      expect(estimateTokens(fitted.projectCard)).toBeLessThanOrEqual(500);
      expect(fitted.projectCard?.text).toMatch(/- … \d+ more/);
      expect(fitted.truncated.projectCard).toBe(1);
      expect(fitted.budget.used).toBeLessThanOrEqual(2_000);
      expect(compactBriefing(fitted)).toContain('(Card shortened: project_card has all of it.)');
    });

    it('leaves out a project without a card, and a card with no room left', () => {
      expect(fitBriefing(material(), 32_000).projectCard).toBeNull();
      expect(fitBriefing(material({ projectCard: { ...card(3), version: 0 } }), 32_000).truncated).toEqual({});
      const tight = fitBriefing(material({ projectCard: card(3) }), 10);
      expect(tight.projectCard).toBeNull();
      expect(tight.truncated.projectCard).toBe(1);
    });
  });
});
