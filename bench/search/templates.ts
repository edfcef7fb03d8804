/**
 * Sentence templates for the synthetic developer memories: each fills slots drawn from the
 * vocabulary and also writes the three questions the memory is the known answer to.
 */
import { type MemoryCategory } from '@cairn/memory';
import * as V from './vocabulary';

export type QueryStyle = 'natural' | 'keyword' | 'paraphrase';

/** mulberry32: tiny, fast, good enough for picking words. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class Picker {
  constructor(readonly next: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  one<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }
}

export interface Draft {
  readonly content: string;
  readonly category: MemoryCategory;
  readonly tags: string[];
  readonly keywords: string[];
  readonly questions: Record<QueryStyle, string>;
}

export interface Slots {
  readonly domain: string;
  readonly role: string;
  readonly service: string;
  readonly tech: string;
  readonly tech2: string;
  readonly person: string;
  readonly file: string;
  readonly env: string;
  readonly ticket: string;
  readonly month: string;
  readonly weekday: string;
}

export function slots(p: Picker): Slots {
  const domain = p.one(V.DOMAINS);
  const role = p.one(V.ROLES);
  const group = p.one(V.TECH_GROUPS);
  const tech = p.one(group);
  let tech2 = p.one(group);
  while (tech2 === tech) tech2 = p.one(group);
  return {
    domain,
    role,
    service: `${domain}-${role}`,
    tech,
    tech2,
    person: p.one(V.PEOPLE),
    file: `${p.one(V.DIRS)}/${domain}-${p.one(V.FILE_BASES)}.${p.one(V.EXTENSIONS)}`,
    env: p.one(V.ENVIRONMENTS),
    ticket: `${domain.slice(0, 3).toUpperCase()}-${p.int(100, 9999)}`,
    month: p.one(V.MONTHS),
    weekday: p.one(V.WEEKDAYS),
  };
}

type Template = (p: Picker, s: Slots) => Draft;

export const TEMPLATES: readonly Template[] = [
  (p, s) => {
    const key = p.one(V.CONFIG_KEYS);
    const value = p.int(2, key.max);
    const before = p.int(1, key.max);
    return {
      category: 'fact',
      content:
        `The ${s.service} sets its ${key.name} to ${value}${key.unit} in ${s.file}; ${s.person} changed it from ` +
        `${before}${key.unit} after ${p.one(V.SYMPTOMS)} in ${s.env}.`,
      tags: [s.domain, 'config'],
      keywords: [...key.synonyms, s.role],
      questions: {
        natural: `What is the ${key.name} of the ${s.service}?`,
        keyword: `${s.service} ${key.name}`,
        paraphrase: `how many ${key.synonyms[0]} does ${s.domain} ${s.role} allow`,
      },
    };
  },
  (p, s) => ({
    category: 'decision',
    content:
      `We decided to move the ${s.service} from ${s.tech} to ${s.tech2} ${p.one(V.REASONS)}. ${s.person} owns ` +
      `the migration, tracked in ${s.ticket}.`,
    tags: [s.domain, 'migration', s.tech2.toLowerCase()],
    keywords: ['switch', 'replace', 'adopt', s.tech2],
    questions: {
      natural: `Why did we move the ${s.service} to ${s.tech2}?`,
      keyword: `${s.service} ${s.tech} ${s.tech2} migration`,
      paraphrase: `who is replacing ${s.tech} in ${s.domain} ${s.role}`,
    },
  }),
  (p, s) => {
    const bug = p.one(V.BUGS);
    const symptom = p.one(V.SYMPTOMS);
    return {
      category: 'bug',
      content:
        `${capitalise(bug.name)} in the ${s.service} caused ${symptom} in ${s.env} when ${s.tech} restarted. ` +
        `Fixed in ${s.file} by ${s.person}; see ${s.ticket}.`,
      tags: [s.domain, 'incident', s.tech.toLowerCase()],
      keywords: [...bug.synonyms, 'root cause', 'postmortem'],
      questions: {
        natural: `What caused ${symptom} in the ${s.service}?`,
        keyword: `${bug.name} ${s.service} ${s.tech}`,
        paraphrase: `${bug.synonyms[0]} ${s.domain} ${s.role} postmortem`,
      },
    };
  },
  (p, s) => {
    const style = p.one(V.STYLES);
    return {
      category: 'preference',
      content: `${s.person} prefers ${style.name} in the ${s.service} code base and asks for them in every review of ${s.file}.`,
      tags: [s.domain, 'style'],
      keywords: [...style.synonyms, 'code review', 'convention'],
      questions: {
        natural: `What does ${s.person} want in reviews of the ${s.service}?`,
        keyword: `${s.person} ${style.name} ${s.service}`,
        paraphrase: `${s.domain} ${s.role} convention ${style.synonyms[0]}`,
      },
    };
  },
  (p, s) => {
    const pattern = p.one(V.PATTERNS);
    const queue = p.one(V.MESSAGING);
    return {
      category: 'pattern',
      content:
        `Every ${s.role} that consumes ${queue} in ${s.domain} uses ${pattern.name}, implemented in ${s.file}, so ` +
        `that a redelivered message is harmless.`,
      tags: [s.domain, queue.toLowerCase(), 'pattern'],
      keywords: [...pattern.synonyms, 'redelivery', 'at-least-once'],
      questions: {
        natural: `How does the ${s.domain} ${s.role} consuming ${queue} handle redelivered messages?`,
        keyword: `${s.domain} ${s.role} ${queue} ${pattern.name}`,
        paraphrase: `${pattern.synonyms[0]} for ${queue} in ${s.domain} ${s.role}`,
      },
    };
  },
  (p, s) => {
    const reader = `${p.one(V.DOMAINS)}-${p.one(V.ROLES)}`;
    const store = p.one(V.DATASTORES);
    return {
      category: 'architecture',
      content:
        `The ${s.service} is the only writer of the ${s.domain}_events table; the ${reader} reads it through ` +
        `${store} replicas with about ${p.int(1, 90)} seconds of lag.`,
      tags: [s.domain, 'architecture', store.toLowerCase()],
      keywords: ['single writer', 'read replica', 'replication lag', 'ownership'],
      questions: {
        natural: `Which service writes the ${s.domain}_events table that the ${reader} reads?`,
        keyword: `${s.domain}_events writer ${reader} ${store}`,
        paraphrase: `replication lag of ${s.domain} events seen by ${reader}`,
      },
    };
  },
  (p, s) => {
    const action = p.one(V.ACTIONS);
    return {
      category: 'todo',
      content: `TODO: ${action} in the ${s.service} before ${s.month}; ${s.person} is blocked on ${s.ticket}.`,
      tags: [s.domain, 'todo'],
      keywords: ['follow-up', 'tech debt', 'deadline'],
      questions: {
        natural: `What is left to do in the ${s.service} before ${s.month}?`,
        keyword: `${s.service} todo ${s.ticket}`,
        paraphrase: `${s.domain} ${s.role} tech debt deadline ${s.month}`,
      },
    };
  },
  (p, s) => ({
    category: 'person',
    content:
      `${s.person} is the on-call owner of the ${s.service} and knows the ${s.tech} setup in ${s.env}; ask ` +
      `${s.person} before touching ${s.file}.`,
    tags: [s.domain, 'ownership', 'on-call'],
    keywords: ['owner', 'contact', 'expert', 'pager'],
    questions: {
      natural: `Who should I ask about the ${s.tech} setup of the ${s.service}?`,
      keyword: `${s.service} owner on-call`,
      paraphrase: `${s.domain} ${s.role} pager contact`,
    },
  }),
  (p, s) => ({
    category: 'other',
    content:
      `The ${s.env} ${s.tech} cluster behind the ${s.service} runs version ${p.int(1, 17)}.${p.int(0, 20)}; its ` +
      `upgrade window is ${s.weekday} ${p.int(0, 23)}:00 UTC.`,
    tags: [s.domain, 'operations', s.tech.toLowerCase()],
    keywords: ['maintenance window', 'version', 'upgrade'],
    questions: {
      natural: `When can we upgrade the ${s.tech} cluster of the ${s.service}?`,
      keyword: `${s.service} ${s.tech} upgrade window`,
      paraphrase: `${s.domain} ${s.tech} maintenance window`,
    },
  }),
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function fill(text: string, s: Slots): string {
  return text.replace(/\{(\w+)\}/g, (_, name: string) => String(s[name as keyof Slots] ?? name));
}
