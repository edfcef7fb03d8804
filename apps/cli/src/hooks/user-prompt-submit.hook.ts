import { type MemoryView } from '../offline/memory-cache.repository';
import { type HookContext } from './hook-context';
import { type HookOutput, type InputOf } from './hook-input';
import { hookStateFile, readState, writeState } from './hook-state';
import { reasonOf } from './hook-errors';
import { fileQueries, namedFiles, promptQuery } from './prompt-text';
import { MAX_INJECTED, selectForInjection } from './recall-selection';

/**
 * The whole hook's time, from process start: past it the prompt goes on without memories and
 * nothing is said (a slow answer is not an error). CAIRN_RECALL_BUDGET_MS overrides it.
 */
export const RECALL_BUDGET_MS = 1_000;
/** Longest memory text injected; the rest is one memory_get away. */
const MEMORY_CHARS = 600;

interface RecalledMemory {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly version: number;
  readonly relevance?: number;
  /** The memory as the server answered it, for the offline cache. */
  readonly view: MemoryView;
}

/** Memories of this session already injected, by id, with the version shown (an edited one is shown again). */
interface ShownState {
  readonly shown: Record<string, number>;
}

/**
 * UserPromptSubmit: auto-recall. The prompt (and the files it names) is recalled with the
 * active model's calibrated threshold (`minRelevance: "default"`); of what passes, the memories
 * close to the best one (selectForInjection), minus those this session was already shown, are
 * injected with their ids. An unrelated prompt passes nothing and injects nothing. Within a hard
 * budget from process start; past it, nothing, silently. What the server recalled goes into the
 * offline cache (so `cairn mcp` can answer memory_recall from it when the server is away); with
 * the server away this hook injects nothing from that cache: its ranking has no calibrated
 * relevance to hold back an unrelated memory.
 */
export async function userPromptSubmit(
  ctx: HookContext,
  input: InputOf<'UserPromptSubmit'>,
): Promise<HookOutput | undefined> {
  const query = promptQuery(input.prompt);
  if (!query) return undefined;
  const budget = recallBudget(ctx);
  const left = ctx.remainingMs(budget);
  if (left < 20) return undefined;
  const recall = async (text: string) => {
    const answer = await ctx.http.request(
      'post',
      '/v1/projects/{project}/memories/search',
      { project: ctx.project.slug },
      { query: text, mode: 'hybrid', explain: false, limit: MAX_INJECTED, minRelevance: 'default' },
      left,
    );
    return answer.results.map((hit): RecalledMemory => ({
      id: hit.memory.id,
      content: hit.memory.content,
      category: hit.memory.category,
      version: hit.memory.version,
      relevance: hit.relevance,
      view: hit.memory,
    }));
  };
  const [byPrompt, ...byFiles] = await Promise.allSettled([
    recall(query),
    ...fileQueries(namedFiles(input.prompt)).map(recall),
  ]);
  if (byPrompt.status === 'rejected') {
    // Past the budget is the expected way to skip: no line. Anything else the user should know.
    if (ctx.remainingMs(budget) > 5) ctx.warn(`no recall: ${reasonOf(byPrompt.reason)}`);
    return undefined;
  }
  const merged = new Map<string, RecalledMemory>();
  const fromFiles = byFiles.flatMap((settled) => (settled.status === 'fulfilled' ? settled.value : []));
  for (const hit of [...byPrompt.value, ...fromFiles]) {
    const seen = merged.get(hit.id);
    if (!seen || (hit.relevance ?? 0) > (seen.relevance ?? 0)) merged.set(hit.id, hit);
  }
  const ranked = [...merged.values()].sort((a, b) => (b.relevance ?? 0) - (a.relevance ?? 0));
  await cacheRecalled(ctx, ranked, budget);
  const stateFile = hookStateFile(ctx.paths, 'sessions', `${input.session_id}-shown`);
  const state = await readState<ShownState>(stateFile, { shown: {} });
  const fresh = selectForInjection(ranked).filter((memory) => state.shown[memory.id] !== memory.version);
  if (fresh.length === 0) return undefined;
  const shown = { ...state.shown };
  for (const memory of fresh) shown[memory.id] = memory.version;
  await writeState(stateFile, { shown } satisfies ShownState);
  return {
    hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: injectedText(ctx, fresh) },
  };
}

/** Puts the recalled memories into the offline cache, if the budget leaves the time (a few ms for a known token). */
async function cacheRecalled(ctx: HookContext, recalled: readonly RecalledMemory[], budget: number): Promise<void> {
  const left = ctx.remainingMs(budget);
  if (recalled.length === 0 || left < 20) return;
  const access = await ctx.store({ timeoutMs: left });
  if (!('store' in access)) return; // a token never seen, with no time left to identify it: the next hook will
  try {
    access.store.memories.put(
      ctx.project.slug,
      recalled.map((memory) => memory.view),
      'recall',
    );
  } catch (error) {
    ctx.warn(`recalled memories not cached for offline use: ${reasonOf(error)}`);
  }
}

function injectedText(ctx: HookContext, memories: readonly RecalledMemory[]): string {
  const lines = memories.map((memory) => {
    const flat = memory.content.replace(/\s+/g, ' ').trim();
    const text = flat.length > MEMORY_CHARS ? `${flat.slice(0, MEMORY_CHARS - 1)}…` : flat;
    const relevance = memory.relevance === undefined ? '' : `, relevance ${memory.relevance.toFixed(2)}`;
    return `- [${memory.category}${relevance}] ${text} (id ${memory.id})`;
  });
  const noun = memories.length === 1 ? 'memory' : 'memories';
  return [
    `Cairn recalled ${memories.length} team ${noun} of project ${ctx.project.slug} relevant to this prompt ` +
      '(memory_get <id> for the full record; memory_update if one is out of date):',
    ...lines,
  ].join('\n');
}

function recallBudget(ctx: HookContext): number {
  const raw = Number(ctx.io.env.CAIRN_RECALL_BUDGET_MS);
  return Number.isFinite(raw) && raw >= 50 && raw <= 30_000 ? raw : RECALL_BUDGET_MS;
}
