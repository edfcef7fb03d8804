import { readFileSync } from 'node:fs';

/** The committed labelled corpus (bench/eval/make-secrets-corpus.ts writes it). */
export const SECRETS_CORPUS_FILE = 'test/fixtures/secrets/corpus.jsonl';

/** One line of the corpus. */
export interface SecretsCorpusItem {
  readonly text: string;
  readonly label: 'secret' | 'clean';
  /** For a secret: its type, named as the scanner names it (a gitleaks rule id, or Cairn's own). */
  readonly type?: string;
  /** For a secret: the secret itself, which a finding must cover for the line to count as found. */
  readonly secret?: string;
  /** For a clean line: what kind of look-alike it is (uuid, git-sha, placeholder, …). */
  readonly kind?: string;
}

export function loadSecretsCorpus(path: string): SecretsCorpusItem[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      const item = JSON.parse(line) as SecretsCorpusItem;
      const labelled = item.label === 'secret' ? Boolean(item.type && item.secret) : item.label === 'clean';
      if (typeof item.text !== 'string' || !labelled) throw new Error(`${path}:${index + 1}: not a corpus item`);
      return item;
    });
}

/**
 * A small seeded generator (mulberry32), so the corpus is the same on every run of the script:
 * the committed file can be regenerated and compared.
 */
export class SeededRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  chars(length: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }

  bytes(length: number): Buffer {
    return Buffer.from(Array.from({ length }, () => Math.floor(this.next() * 256)));
  }
}

export const DIGITS = '0123456789';
export const LOWER = 'abcdefghijklmnopqrstuvwxyz';
export const UPPER = LOWER.toUpperCase();
export const HEX = '0123456789abcdef';
export const ALNUM = DIGITS + UPPER + LOWER;
export const BASE64URL = `${ALNUM}-_`;
export const BASE64 = `${ALNUM}+/`;
