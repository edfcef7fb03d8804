import { type MemoryCategory } from '@cairn/memory';
import { dedupeCandidates, type FactCandidate } from './fact-candidate';

interface Rule {
  readonly category: MemoryCategory;
  readonly importance: number;
  readonly patterns: readonly RegExp[];
  /** Preferences are the user's: an assistant saying "I prefer" is not one. */
  readonly userOnly?: boolean;
}

const CODE_NOUN =
  /\b(?:service|api|server|database|db|app|application|repo|repository|module|library|lib|package|endpoint|cluster|queue|worker|pipeline|frontend|backend|cache|job|cli|sdk|schema|table|config|container|image|function|class|component|bucket|index)s?\b/i;

/** "X uses / runs on / is written in … Y" where X looks like a code thing, not a person or a problem. */
const FACT =
  /^(?:the\s+)?(`[^`]+`|[\w./@-]+(?:\s+[\w./@-]+){0,3}?)\s+(uses|runs on|is built (?:with|on)|is written in|depends on|is deployed (?:to|on)|talks to|is (?:a|an|the))\s+\S/i;

const RULES: readonly Rule[] = [
  {
    category: 'decision',
    importance: 4,
    patterns: [
      /\b(?:we|i|the team)\s+(?:have\s+|had\s+|finally\s+)?(?:decided|agreed|chose|settled on)\b/i,
      /\bwe(?:'ll| will| are going to)\s+(?:use|go with|switch to|adopt)\b/i,
      /^decision\s*:\s*\S/i,
    ],
  },
  {
    category: 'preference',
    importance: 3,
    userOnly: true,
    patterns: [/\b(?:i|we)\s+(?:always|never|prefer|would rather)\b/i, /^(?:always|never)\s+[a-z]+\b/i],
  },
  {
    category: 'bug',
    importance: 3,
    patterns: [
      /^(?:bug|fix|fixed|error)\s*:\s*\S/i,
      /\b(?:the bug was|root cause(?: was|:))/i,
      /\bfixed (?:the|a) bug\b/i,
    ],
  },
  {
    category: 'todo',
    importance: 3,
    patterns: [/^(?:todo|fixme)\b\s*:?\s*\S/i, /\b(?:we|i) (?:still )?need to\b/i, /^need to\b/i],
  },
];

/** Speculation, questions and negations are not facts; better to miss one than invent one. */
const HEDGE =
  /\b(?:maybe|perhaps|might|probably|possibly|not sure|unsure|i think|i guess|i wonder|should we|could we|what if|would it|haven't decided|have not decided|undecided|not decided|if we)\b/i;
const SPEAKER = /^(user|human|me|assistant|ai|agent|claude|model|system|bot)\s*:\s*/i;
const MACHINE_SPEAKERS = /^(?:assistant|ai|agent|claude|model|system|bot)$/i;
const BULLET = /^(?:[-*•>]+|\d+[.)])\s+/;
const CODE_LINE = /[;{}]\s*$|^\$ |=>|^(?:import|export|const|let|var|def|function|return)\b/;
const STOP = new Set(
  `a an and are as at be been but by for from has have i if in into is it its no not of on or our so that the their then
  there these they this to was we were will with you your need use uses used always never prefer decided agreed chose
  todo fixme bug fix fixed error still which when what`.split(/\s+/),
);

/** Up to eight distinct content words of the sentence, for keyword recall. */
function keywordsOf(sentence: string): string[] {
  const words = sentence.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}._/-]*[\p{L}\p{N}]/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 3 && !STOP.has(word)))].slice(0, 8);
}

function classify(sentence: string, fromMachine: boolean): Pick<FactCandidate, 'category' | 'importance'> | undefined {
  for (const rule of RULES) {
    if (rule.userOnly && fromMachine) continue;
    if (rule.patterns.some((pattern) => pattern.test(sentence))) return rule;
  }
  const fact = FACT.exec(sentence);
  const subject = fact?.[1];
  if (!fact || !subject) return undefined;
  const codeish =
    subject.includes('`') || /\w[./]\w/.test(subject) || /[a-z][A-Z]/.test(subject) || CODE_NOUN.test(subject);
  if (!codeish) return undefined;
  const structural = /runs on|deployed|talks to|depends on/i.test(fact[2] ?? '');
  return { category: structural ? 'architecture' : 'fact', importance: 3 };
}

/**
 * The no-model extractor: only sentences stated plainly in a recognisable form (explicit
 * decisions, stated preferences, bug reports and fixes, to-dos, and "X uses/runs on Y" about
 * code things). Questions, hedged and negated statements and code are skipped.
 */
export function extractByRules(transcript: string): FactCandidate[] {
  const found: FactCandidate[] = [];
  let inCodeBlock = false;
  for (const raw of transcript.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inCodeBlock = !inCodeBlock;
      continue;
    }
    if (inCodeBlock || line.length === 0) continue;
    const speaker = SPEAKER.exec(line)?.[1];
    const fromMachine = speaker !== undefined && MACHINE_SPEAKERS.test(speaker);
    const text = line.replace(SPEAKER, '').replace(BULLET, '');
    for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z`"'])/)) {
      const candidate = sentence.trim();
      if (candidate.length < 15 || candidate.length > 300) continue;
      if (candidate.endsWith('?') || HEDGE.test(candidate) || CODE_LINE.test(candidate)) continue;
      const kind = classify(candidate, fromMachine);
      if (kind) found.push({ content: candidate, ...kind, keywords: keywordsOf(candidate), tags: [] });
    }
  }
  return dedupeCandidates(found);
}
