/** What the confidence is computed from (../confidence.ts). */
export interface ConfidenceSignals {
  readonly coverage: number;
  readonly agreement: number;
  readonly symbol: number;
  readonly margin: number;
}

export interface Evidence {
  readonly source: 'memory' | 'knowledge' | 'code' | 'symbol';
  /** memory:<id>, a knowledge-base source, or path:start-end. */
  readonly ref: string;
  readonly title: string | null;
  readonly text: string;
  /** The source's own ranking score (not comparable across sources). */
  readonly score: number;
  /** Share of the question's content terms in this piece. */
  readonly coverage: number;
}

export interface ReadNext {
  readonly tool: string;
  readonly arguments: Readonly<Record<string, string>>;
  readonly why: string;
}

export interface ContextCheckResult {
  readonly confidence: number;
  readonly level: 'high' | 'medium' | 'low';
  readonly evidence: Evidence[];
  readonly readNext: ReadNext[];
  readonly signals: ConfidenceSignals;
  readonly notes: string[];
}
