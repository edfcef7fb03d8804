import { performance } from 'node:perf_hooks';
import { type SecretScanner } from '@cairn/secret-detection';
import { type SecretsCorpusItem } from './secrets-corpus';

/**
 * What scanning costs on a write, measured (not asserted: timings on a shared machine are
 * figures, not tests): a typical memory of about 500 characters, a 64 KB document made of
 * corpus lines (so keywords such as "token" and "key" make the generic rules run), and a 64 KB
 * text without any keyword, where the prefilter leaves every pattern unrun.
 */
export interface ScanTiming {
  readonly name: string;
  readonly chars: number;
  readonly runs: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly rulesRun: number;
}

function fillTo(lines: readonly string[], size: number): string {
  let text = '';
  for (let i = 0; text.length < size; i += 1) text += `${lines[i % lines.length] ?? ''}\n`;
  return text.slice(0, size);
}

function time(scanner: SecretScanner, name: string, text: string, runs: number): ScanTiming {
  for (let i = 0; i < Math.min(20, runs); i += 1) scanner.scan(text);
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    scanner.scan(text);
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0;
  return {
    name,
    chars: text.length,
    runs,
    medianMs: at(0.5),
    p95Ms: at(0.95),
    rulesRun: scanner.inspect(text).rulesRun,
  };
}

export function measureScanTimes(scanner: SecretScanner, corpus: readonly SecretsCorpusItem[]): ScanTiming[] {
  const clean = corpus.filter((item) => item.label === 'clean' && item.kind === 'prose').map((item) => item.text);
  const secret = corpus.find((item) => item.type === 'github-pat')?.text ?? '';
  const memory = `${fillTo(clean, 500 - secret.length - 1)} ${secret}`;
  const document = fillTo(
    corpus.map((item) => item.text),
    64 * 1024,
  );
  const plain = fillTo(['lorem ipsum dolor sit amet consectetur adipiscing elit'], 64 * 1024);
  return [
    time(scanner, 'memory, 500 chars, one secret', memory, 500),
    time(scanner, 'document, 64 KB of corpus lines', document, 40),
    time(scanner, 'document, 64 KB without keywords', plain, 200),
  ];
}

export function formatTimings(timings: readonly ScanTiming[]): string {
  return `${timings
    .map(
      (t) =>
        `  ${t.name.padEnd(36)} ${t.medianMs.toFixed(3).padStart(8)} ms median, ${t.p95Ms.toFixed(3).padStart(8)} ms p95 ` +
        `(${t.runs} runs, ${t.rulesRun} rule runs)`,
    )
    .join('\n')}\n`;
}
