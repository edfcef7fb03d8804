import { readFileSync } from 'node:fs';

/** One question of the LongMemEval release (eval-data.ts says where it comes from). */
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
  /** The question's own haystack: its sessions' ids, in the release's order. */
  readonly sessions: readonly string[];
  /** `answer_session_ids`: the sessions that hold the answer. */
  readonly answerSessions: ReadonlySet<string>;
  /** When the question is asked (`question_date`): what its dates ("last Saturday") mean. */
  readonly date: Date;
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

/** The release is a JSON array; the committed CI subset is JSON Lines (one question a line, so diffs stay readable). */
export function readLongMemEval(path: string): LongMemEvalQuestion[] {
  const text = readFileSync(path, 'utf8');
  if (!path.endsWith('.jsonl')) return JSON.parse(text) as LongMemEvalQuestion[];
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LongMemEvalQuestion);
}

/** The session a turn key (`<session id>#<turn index>`) belongs to. */
export function sessionOf(key: string): string {
  const hash = key.lastIndexOf('#');
  return hash < 0 ? key : key.slice(0, hash);
}

/**
 * Pools every session of every question into one corpus (sessions de-duplicated by id), one
 * item per turn, so each question competes against all ~950 sessions. Abstention questions
 * (`_abs`) and questions without marked evidence turns have nothing to retrieve and are
 * counted, not scored.
 */
export function loadLongMemEval(path: string): EvalCorpus {
  const data = readLongMemEval(path);
  const turns: Turn[] = [];
  const seen = new Set<string>();
  const questions: EvalQuestion[] = [];
  let abstention = 0;
  let noEvidence = 0;
  for (const item of data) {
    const relevant = new Set<string>();
    const sessions: string[] = [];
    item.haystack_sessions.forEach((session, index) => {
      const sessionId = item.haystack_session_ids[index] ?? `${item.question_id}-${index}`;
      sessions.push(sessionId);
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
    else
      questions.push({
        id: item.question_id,
        type: item.question_type,
        question: item.question,
        relevant,
        sessions,
        answerSessions: new Set(item.answer_session_ids),
        date: parseDate(item.question_date),
      });
  }
  return { turns, questions, skipped: { abstention, noEvidence } };
}

/** A question the evaluation can score: not an abstention, and with marked evidence turns. */
function scorable(item: LongMemEvalQuestion): boolean {
  return (
    !item.question_id.endsWith('_abs') && item.haystack_sessions.some((session) => session.some((t) => t.has_answer))
  );
}

/**
 * The CI subset's rule: per question type, the first `perType` scorable questions by id
 * (code-point order), types in name order. Stable: it depends on nothing but the release.
 */
export function selectSubset(data: readonly LongMemEvalQuestion[], perType: number): LongMemEvalQuestion[] {
  const byType = new Map<string, LongMemEvalQuestion[]>();
  for (const item of data.filter(scorable)) {
    const list = byType.get(item.question_type) ?? [];
    list.push(item);
    byType.set(item.question_type, list);
  }
  const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return [...byType.keys()]
    .sort(byCodePoint)
    .flatMap((type) =>
      (byType.get(type) ?? []).sort((a, b) => byCodePoint(a.question_id, b.question_id)).slice(0, perType),
    );
}
