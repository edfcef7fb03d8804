/**
 * The team the scope benchmark seeds (issue 14 §4): who wrote each memory, in which project and
 * scope, which private memories are shared with whom, the tag rules, and from that what one
 * agent may see. Pure and deterministic (memory `i` depends only on `i`), so the benchmark can
 * check the service's answers against it and the same rows land in both tenants.
 */
import { type MemoryScopeLevel } from '@cairn/memory';
import { Picker, prng } from './templates';

export const PROJECTS = 50;
export const AUTHORS = 20;
/** Authors 0…13 are service agents (no user), 14…19 people working through their own tokens. */
export const SERVICE_AGENTS = 14;
/**
 * Scope mix of a working team: `project` is what agents store by default (and every memory
 * written before scopes), `private` the scratch notes and drafts an agent keeps to itself (a
 * tenant may make it the agents' default), `team` the few facts an orchestrator or an admin
 * wrote for every project or approved through the review queue.
 */
export const SCOPE_MIX: Readonly<Record<MemoryScopeLevel, number>> = { project: 0.6, private: 0.3, team: 0.1 };
export const SHARES = 1_000;
/**
 * Of the shares, up to this many give the measured agent another author's private memory in
 * its own project, and never more than a third of them: the rest stay hidden from it, so both
 * the share lookups and the hiding are exercised where recall is measured.
 */
export const SHARES_TO_VIEWER = 200;
const PLAN_SEED = 0x5c0_9e5;

export interface Author {
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly tokenId: string;
}

export interface PlannedMemory {
  readonly project: number;
  readonly author: number;
  readonly scope: MemoryScopeLevel;
}

export interface PlannedShare {
  readonly memory: number;
  readonly grantee: number;
}

export interface PlannedRule {
  readonly owner: number;
  readonly grantee: number;
  readonly tag: string;
  /** Null: the owner's memories with the tag in every project. */
  readonly project: number | null;
}

export interface ScopePlan {
  readonly memories: readonly PlannedMemory[];
  readonly shares: readonly PlannedShare[];
  readonly rules: readonly PlannedRule[];
}

/** The measured agent and its project. */
export const VIEWER = 0;
export const VIEWER_PROJECT = 0;

/** Four tag rules, two naming the measured agent (one limited to its project, one everywhere). */
export const RULES: readonly PlannedRule[] = [
  { owner: 5, grantee: VIEWER, tag: 'incident', project: VIEWER_PROJECT },
  { owner: 15, grantee: VIEWER, tag: 'todo', project: null },
  { owner: 3, grantee: 7, tag: 'config', project: null },
  { owner: 16, grantee: 2, tag: 'architecture', project: VIEWER_PROJECT },
];

export function plannedMemory(index: number): PlannedMemory {
  const pick = new Picker(prng(Math.imul(PLAN_SEED ^ index, 0x9e3779b1) ^ index));
  const author = pick.int(0, AUTHORS - 1);
  const roll = pick.next();
  const scope: MemoryScopeLevel =
    roll < SCOPE_MIX.project ? 'project' : roll < SCOPE_MIX.project + SCOPE_MIX.private ? 'private' : 'team';
  return { project: index % PROJECTS, author, scope };
}

/**
 * Every memory's place, then the shares: {@link SHARES_TO_VIEWER} of other authors' private
 * memories in the viewer's project shared with the viewer (so honouring shares is exercised
 * where it is measured), the rest private memories anywhere shared with another author.
 */
export function scopePlan(size: number): ScopePlan {
  const memories = Array.from({ length: size }, (_, index) => plannedMemory(index));
  const pick = new Picker(prng(PLAN_SEED ^ size));
  const privateIds = memories.flatMap((m, index) => (m.scope === 'private' ? [index] : []));
  const theirsInProject = privateIds.filter((index) => {
    const m = memories[index];
    return m.project === VIEWER_PROJECT && m.author !== VIEWER;
  });
  const seen = new Set<string>();
  const shares: PlannedShare[] = [];
  const add = (memory: number, grantee: number) => {
    const key = `${memory}:${grantee}`;
    if (seen.has(key) || memories[memory]?.author === grantee) return;
    seen.add(key);
    shares.push({ memory, grantee });
  };
  const toViewer = Math.min(SHARES_TO_VIEWER, Math.floor(theirsInProject.length / 3));
  for (let tries = 0; shares.length < toViewer && tries < toViewer * 20; tries++) {
    add(theirsInProject[pick.int(0, theirsInProject.length - 1)], VIEWER);
  }
  for (let tries = 0; shares.length < SHARES && privateIds.length > 0 && tries < SHARES * 20; tries++) {
    add(privateIds[pick.int(0, privateIds.length - 1)], pick.int(0, AUTHORS - 1));
  }
  return { memories, shares, rules: RULES };
}

/** The ownership rule of memory-ownership.ts over planned authors: the same user, else the same agent, else the token. */
export function sameAuthor(who: Author, author: Author): boolean {
  if (who.userId !== null && author.userId === who.userId) return true;
  if (who.userId === null && who.agentId !== null && author.userId === null && author.agentId === who.agentId) {
    return true;
  }
  return author.tokenId === who.tokenId;
}

/**
 * What recall in the viewer's project may return: the project's memories and every team
 * memory, private ones only when the viewer wrote them or was given them (a share, or a tag
 * rule of their author naming the viewer). The expectation the benchmark checks answers against.
 */
export function visibleTo(
  plan: ScopePlan,
  authors: readonly Author[],
  tagsOf: (index: number) => readonly string[],
  viewer = VIEWER,
  project = VIEWER_PROJECT,
): boolean[] {
  const me = authors[viewer];
  const sharedWithMe = new Set(plan.shares.filter((s) => s.grantee === viewer).map((s) => s.memory));
  const myRules = plan.rules.filter((rule) => rule.grantee === viewer);
  return plan.memories.map((m, index) => {
    if (m.project !== project && m.scope !== 'team') return false;
    if (m.scope !== 'private' || sameAuthor(me, authors[m.author]) || sharedWithMe.has(index)) return true;
    const tags = tagsOf(index);
    return myRules.some(
      (rule) =>
        tags.includes(rule.tag) &&
        (rule.project === null || rule.project === m.project) &&
        sameAuthor(authors[rule.owner], authors[m.author]),
    );
  });
}
