import { capAtWord, meaningfulLines, oneLine } from '@cairn/generation';

export const SESSION_SUMMARY_MAX_CHARS = 1_500;

const DECISION =
  /\b(?:decided|decision|agreed|chose|chosen|settled on|going with|we(?:'ll| will) use|switch(?:ed)? to)\b/i;
const PROBLEM = /\b(?:error|exception|failed|failing|failure|bug|broken|crash(?:ed|es)?|traceback|panic|regression)\b/i;
const NEXT = /\b(?:todo|next steps?|need to|needs to|still have to|remaining|follow[- ]up|open question|not yet)\b/i;
const FILE =
  /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|php|cs|c|h|cpp|hpp|swift|scala|sql|sh|md|json|ya?ml|toml|ini|css|scss|html|vue|svelte|tf|proto|graphql))\b/g;

/** Lines matching `pattern`, deduplicated, each cut to one short line. */
function matching(lines: readonly string[], pattern: RegExp, limit: number): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    if (found.size >= limit) break;
    if (pattern.test(line)) found.add(capAtWord(oneLine(line.replace(/^(?:[-*>]|\w+:)\s+/, '')), 180));
  }
  return [...found];
}

/**
 * A session summary without a model: how it started and ended, plus the lines that look
 * like decisions, problems and next steps and the files mentioned. Extractive only, so it
 * never states anything the transcript did not say; always within the summary cap.
 */
export function fallbackSessionSummary(transcript: string): string {
  const lines = meaningfulLines(transcript);
  const files = [...new Set([...transcript.matchAll(FILE)].map((match) => match[1] ?? ''))].filter(Boolean);
  const bullets = (items: readonly string[]) => items.map((item) => `- ${item}`).join('\n');
  const start = capAtWord(oneLine(lines.slice(0, 3).join(' ')), 240);
  const end = lines.length > 3 ? capAtWord(oneLine(lines.slice(-2).join(' ')), 240) : '';
  const sections = [
    `Session of ${lines.length} lines (automatic extractive summary, no model).`,
    `Started with: ${start}`,
    ...optional('Decisions', bullets(matching(lines, DECISION, 5))),
    ...optional('Problems', bullets(matching(lines, PROBLEM, 4))),
    ...(files.length > 0 ? [`Files: ${files.slice(0, 15).join(', ')}`] : []),
    ...optional('Next steps', bullets(matching(lines, NEXT, 4))),
    ...(end ? [`Ended with: ${end}`] : []),
  ];
  let summary = '';
  for (const section of sections) {
    const room = SESSION_SUMMARY_MAX_CHARS - summary.length - (summary ? 1 : 0);
    if (room < 30) break;
    summary += (summary ? '\n' : '') + capAtWord(section, room);
  }
  return summary;
}

function optional(title: string, body: string): string[] {
  return body ? [`${title}:\n${body}`] : [];
}
