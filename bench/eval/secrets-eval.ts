import { performance } from 'node:perf_hooks';
import { type SecretFinding, type SecretScanner } from '@cairn/secret-detection';
import { type SecretsCorpusItem } from './secrets-corpus';

/**
 * Scores the secret scanner on the labelled corpus, line by line.
 * - A secret line is found when a finding covers its whole secret (a finding elsewhere in the
 *   line does not count); its type agrees when such a finding has the labelled type.
 * - A clean line is a false positive when it has any finding at all.
 * precision = found / (found + false positives); recall = found / secret lines;
 * false-positive rate = false positives / clean lines. Per type: recall and type agreement by
 * the labelled type; precision and false positives by the type the scanner reported.
 */

export interface TypeScore {
  readonly type: string;
  readonly lines: number;
  readonly found: number;
  readonly recall: number;
  readonly typeAgreement: number;
  /** Lines with a finding of this type, and how many of those were this type's secret. */
  readonly reported: number;
  readonly precision: number;
  readonly falsePositives: number;
}

export interface SecretsEvalRun {
  readonly secretLines: number;
  readonly cleanLines: number;
  readonly types: number;
  readonly found: number;
  readonly falsePositives: number;
  readonly precision: number;
  readonly recall: number;
  readonly falsePositiveRate: number;
  /** Clean lines with a high-tier finding: what a caller that acts on high findings only would see. */
  readonly highTierFalsePositiveRate: number;
  readonly byType: readonly TypeScore[];
  /** False positives by kind of clean line (uuid, placeholder, …). */
  readonly falsePositivesByKind: Readonly<Record<string, number>>;
  /** Corpus line numbers (1-based) of the misses and false positives, for looking at them. */
  readonly missedLines: readonly { line: number; type: string; reported: string[] }[];
  readonly falsePositiveLines: readonly { line: number; kind: string; reported: string[] }[];
  readonly seconds: number;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? 1 : numerator / denominator);

function covering(item: SecretsCorpusItem, findings: readonly SecretFinding[]): SecretFinding[] {
  const at = item.text.indexOf(item.secret ?? '');
  if (at < 0) throw new Error(`corpus line's secret is not in its text (type ${item.type})`);
  const end = at + (item.secret ?? '').length;
  return findings.filter((finding) => finding.start <= at && finding.end >= end);
}

export function evaluateSecrets(scanner: SecretScanner, corpus: readonly SecretsCorpusItem[]): SecretsEvalRun {
  const started = performance.now();
  const labelled = new Map<string, { lines: number; found: number; agreed: number }>();
  const reported = new Map<string, { lines: number; correct: number; falsePositives: number }>();
  const falsePositivesByKind: Record<string, number> = {};
  const missedLines: { line: number; type: string; reported: string[] }[] = [];
  const falsePositiveLines: { line: number; kind: string; reported: string[] }[] = [];
  let found = 0;
  let falsePositives = 0;
  let highTierFalsePositives = 0;

  corpus.forEach((item, index) => {
    const findings = scanner.scan(item.text);
    const types = [...new Set(findings.map((finding) => finding.type))];
    if (item.label === 'secret') {
      const type = item.type ?? 'unknown';
      const hits = covering(item, findings);
      const score = labelled.get(type) ?? { lines: 0, found: 0, agreed: 0 };
      labelled.set(type, score);
      score.lines += 1;
      if (hits.length > 0) {
        found += 1;
        score.found += 1;
        if (hits.some((hit) => hit.type === type)) score.agreed += 1;
      } else {
        missedLines.push({ line: index + 1, type, reported: types });
      }
      for (const reportedType of types) {
        const entry = reported.get(reportedType) ?? { lines: 0, correct: 0, falsePositives: 0 };
        reported.set(reportedType, entry);
        entry.lines += 1;
        if (reportedType === type && hits.some((hit) => hit.type === type)) entry.correct += 1;
      }
    } else if (findings.length > 0) {
      falsePositives += 1;
      if (findings.some((finding) => finding.tier === 'high')) highTierFalsePositives += 1;
      const kind = item.kind ?? 'unknown';
      falsePositivesByKind[kind] = (falsePositivesByKind[kind] ?? 0) + 1;
      falsePositiveLines.push({ line: index + 1, kind, reported: types });
      for (const reportedType of types) {
        const entry = reported.get(reportedType) ?? { lines: 0, correct: 0, falsePositives: 0 };
        reported.set(reportedType, entry);
        entry.lines += 1;
        entry.falsePositives += 1;
      }
    }
  });

  const secretLines = corpus.filter((item) => item.label === 'secret').length;
  const cleanLines = corpus.length - secretLines;
  const allTypes = [...new Set([...labelled.keys(), ...reported.keys()])].sort();
  const byType = allTypes.map((type): TypeScore => {
    const score = labelled.get(type) ?? { lines: 0, found: 0, agreed: 0 };
    const report = reported.get(type) ?? { lines: 0, correct: 0, falsePositives: 0 };
    return {
      type,
      lines: score.lines,
      found: score.found,
      recall: ratio(score.found, score.lines),
      typeAgreement: ratio(score.agreed, score.lines),
      reported: report.lines,
      precision: ratio(report.correct, report.lines),
      falsePositives: report.falsePositives,
    };
  });
  return {
    secretLines,
    cleanLines,
    types: labelled.size,
    found,
    falsePositives,
    precision: ratio(found, found + falsePositives),
    recall: ratio(found, secretLines),
    falsePositiveRate: ratio(falsePositives, cleanLines),
    highTierFalsePositiveRate: ratio(highTierFalsePositives, cleanLines),
    byType,
    falsePositivesByKind,
    missedLines,
    falsePositiveLines,
    seconds: (performance.now() - started) / 1000,
  };
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;

export function formatSecretsRun(run: SecretsEvalRun): string {
  const lines = [
    `Secret detection: ${run.secretLines} secret lines of ${run.types} types, ${run.cleanLines} clean lines`,
    `  precision ${pct(run.precision)}   recall ${pct(run.recall)}   false positives ${pct(run.falsePositiveRate)} ` +
      `(${run.falsePositives} of ${run.cleanLines} clean lines; high tier alone ${pct(run.highTierFalsePositiveRate)})`,
    '',
    `  ${'type'.padEnd(32)} ${'lines'.padStart(5)} ${'recall'.padStart(7)} ${'type ok'.padStart(7)} ${'reported'.padStart(8)} ${'precision'.padStart(9)} ${'FP'.padStart(3)}`,
    ...run.byType.map(
      (t) =>
        `  ${t.type.padEnd(32)} ${String(t.lines).padStart(5)} ${(t.lines ? pct(t.recall) : '-').padStart(7)} ` +
        `${(t.lines ? pct(t.typeAgreement) : '-').padStart(7)} ${String(t.reported).padStart(8)} ` +
        `${(t.reported ? pct(t.precision) : '-').padStart(9)} ${String(t.falsePositives).padStart(3)}`,
    ),
  ];
  const kinds = Object.entries(run.falsePositivesByKind);
  if (kinds.length > 0) lines.push('', `  false positives by kind: ${kinds.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  for (const miss of run.missedLines) {
    lines.push(`  missed: line ${miss.line} (${miss.type}), reported: ${miss.reported.join(', ') || 'nothing'}`);
  }
  for (const fp of run.falsePositiveLines) {
    lines.push(`  false positive: line ${fp.line} (${fp.kind}), reported: ${fp.reported.join(', ')}`);
  }
  return `${lines.join('\n')}\n`;
}
