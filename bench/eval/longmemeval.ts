import { readFileSync } from 'node:fs';

/** One question of the LongMemEval release (see ../shared/eval/README.md). */
export interface LongMemEvalQuestion {
  question_id: string;
  question_type: string;
  question: string;
  answer: string;
  question_date: string;
  haystack_session_ids: string[];
  haystack_dates: string[];
  haystack_sessions: { role: string; content: string; has_answer?: boolean }[][];
  answer_session_ids: string[];
}

export interface Turn {
  /** `<session id>#<turn index>`: stable across runs. */
  readonly key: string;
  readonly role: string;
  readonly content: string;
  readonly date: Date;
}

export interface EvalQuestion {
  readonly id: string;
  readonly type: string;
  readonly question: string;
  /** Keys of the turns that hold the evidence. */
  readonly relevant: ReadonlySet<string>;
}

export interface EvalCorpus {
  readonly turns: Turn[];
  readonly questions: EvalQuestion[];
  readonly skipped: { abstention: number; noEvidence: number };
}

/** "2023/05/21 (Sun) 19:50" → Date (UTC). */
function parseDate(text: string): Date {
  const match = /^(\d{4})\/(\d{2})\/(\d{2}).*?(\d{2}):(\d{2})/.exec(text);
  if (!match) return new Date(0);
  const [, y, mo, d, h, mi] = match.map(Number);
  return new Date(Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0));
}

/**
 * Pools every session of every question into one corpus (sessions de-duplicated by id), one
 * item per turn, so each question competes against all ~950 sessions. Abstention questions
 * (`_abs`) and questions without marked evidence turns have nothing to retrieve and are
 * counted, not scored.
 */
export function loadLongMemEval(path: string): EvalCorpus {
  const data = JSON.parse(readFileSync(path, 'utf8')) as LongMemEvalQuestion[];
  const turns: Turn[] = [];
  const seen = new Set<string>();
  const questions: EvalQuestion[] = [];
  let abstention = 0;
  let noEvidence = 0;
  for (const item of data) {
    const relevant = new Set<string>();
    item.haystack_sessions.forEach((session, index) => {
      const sessionId = item.haystack_session_ids[index] ?? `${item.question_id}-${index}`;
      const date = parseDate(item.haystack_dates[index] ?? '');
      session.forEach((turn, turnIndex) => {
        const key = `${sessionId}#${turnIndex}`;
        if (turn.has_answer) relevant.add(key);
        if (seen.has(key)) return;
        seen.add(key);
        if (turn.content.trim()) turns.push({ key, role: turn.role, content: turn.content, date });
      });
    });
    if (item.question_id.endsWith('_abs')) abstention += 1;
    else if (relevant.size === 0) noEvidence += 1;
    else questions.push({ id: item.question_id, type: item.question_type, question: item.question, relevant });
  }
  return { turns, questions, skipped: { abstention, noEvidence } };
}

export interface Metrics {
  readonly questions: number;
  readonly recall: Record<1 | 5 | 10, number>;
  readonly hit: Record<1 | 5 | 10, number>;
  readonly mrr: number;
}

const CUTOFFS = [1, 5, 10] as const;

/** recall@k: share of a question's evidence turns in its top k; hit@k: any of them; MRR of the first. */
export function score(results: { relevant: ReadonlySet<string>; ranked: readonly string[] }[]): Metrics {
  const recall = { 1: 0, 5: 0, 10: 0 };
  const hit = { 1: 0, 5: 0, 10: 0 };
  let mrr = 0;
  for (const { relevant, ranked } of results) {
    for (const k of CUTOFFS) {
      const found = ranked.slice(0, k).filter((key) => relevant.has(key)).length;
      recall[k] += found / relevant.size;
      hit[k] += found > 0 ? 1 : 0;
    }
    const first = ranked.findIndex((key) => relevant.has(key));
    mrr += first >= 0 ? 1 / (first + 1) : 0;
  }
  const n = Math.max(results.length, 1);
  return {
    questions: results.length,
    recall: { 1: recall[1] / n, 5: recall[5] / n, 10: recall[10] / n },
    hit: { 1: hit[1] / n, 5: hit[5] / n, 10: hit[10] / n },
    mrr: mrr / n,
  };
}
