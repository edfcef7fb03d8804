import { SingleBar } from 'cli-progress';
import { type Output } from './output';

/** Progress of long work (indexing, import, export): a bar on a terminal, nothing in pipes and hooks. */
export interface Progress {
  advance(by?: number, label?: string): void;
  stop(): void;
}

export function startProgress(output: Output, total: number, unit: string): Progress {
  if (!output.interactive || output.json || total <= 0) return { advance: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    format: `{bar} {value}/{total} ${unit} {label}`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
  });
  bar.start(total, 0, { label: '' });
  return {
    advance: (by = 1, label = '') => bar.increment(by, { label: label.slice(-50) }),
    stop: () => bar.stop(),
  };
}

/** A running count for work of unknown size (an export's lines): on a terminal only. */
export function startCounter(output: Output, unit: string): Progress {
  if (!output.interactive || output.json) return { advance: () => undefined, stop: () => undefined };
  const bar = new SingleBar({
    format: `{value} ${unit}`,
    stream: process.stderr,
    hideCursor: true,
    clearOnComplete: true,
  });
  bar.start(Number.MAX_SAFE_INTEGER, 0);
  return { advance: (by = 1) => bar.increment(by), stop: () => bar.stop() };
}

/** A status line (`indexing 120/800 files (3.1 MB)`): rewritten in place on a terminal, nothing in pipes or with --json. */
export interface StatusLine {
  update(text: string): void;
  stop(): void;
}

export function startStatusLine(output: Output): StatusLine {
  if (!output.interactive || output.json) return { update: () => undefined, stop: () => undefined };
  const line = new SingleBar({ format: '{text}', stream: process.stderr, hideCursor: true, clearOnComplete: true });
  line.start(1, 0, { text: '' });
  return { update: (text) => line.update({ text }), stop: () => line.stop() };
}
