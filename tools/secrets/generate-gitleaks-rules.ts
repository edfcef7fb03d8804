/**
 * Writes libs/secret-detection/src/gitleaks-rules.generated.json from gitleaks' default configuration
 * (config/gitleaks.toml of the Go module github.com/zricethezav/gitleaks/v8, MIT licence), so
 * Cairn's secret rules are a maintained rule set carried over faithfully, not a list of ours.
 *
 *   GOFLAGS=-mod=mod go mod download -json github.com/zricethezav/gitleaks/v8@v8.30.1   # prints "Dir"
 *   npm run -s build && node dist/tools/secrets/generate-gitleaks-rules.js <Dir>/config/gitleaks.toml v8.30.1
 *
 * Every rule keeps its id, keywords (the prefilter), entropy threshold, secret group and allow
 * lists; each pattern goes through the RE2 → JavaScript translator (re2-to-js.ts) and must
 * compile. What cannot be carried over is listed in the output's `dropped` with the reason and
 * printed: path-only rules and rules scoped to file names (Cairn scans text, which has no path),
 * and any pattern the translator refuses. Allow-list checks on paths and commits are left out
 * for the same reason (an `and` allow list that needs one can never hold, so it is left out whole).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { parse } from 'smol-toml';
import { type GeneratedAllowlist, type GeneratedRule, type GeneratedRuleSet } from '@cairn/secret-detection';
import { re2ToJs } from './re2-to-js';

const MODULE = 'github.com/zricethezav/gitleaks/v8';

/**
 * gitleaks' generated rules end a secret with this suffix (cmd/generate/config/utils
 * `secretSuffix`): a quote, whitespace, `;`, an escaped newline or the end of the text. Code
 * files end tokens that way; the prose Cairn stores ends them with a full stop or a comma just
 * as often ("the key is sk_live_…."), where the rule would miss. The one adaptation made to the
 * rules: the suffix also accepts sentence punctuation followed by whitespace, a quote or the end.
 * The secret's own group is untouched, so what counts as the secret is gitleaks' definition.
 */
const SECRET_SUFFIX = String.raw`(?:[\x60'"\s;]|\\[nr]|$)`;
const PROSE_SUFFIX = String.raw`(?:[\x60'"\s;]|\\[nr]|$|[.,:!?)\]](?:[\x60'"\s]|$))`;
/**
 * Data, not code: JSON, read through the typed loader gitleaks-rule-set.ts (which checks its
 * shape), so the rule set is not compiled, linted or type-checked as 4,000 lines of TypeScript.
 * tsc copies it to dist beside the loader (`resolveJsonModule`), so the built apps find it.
 */
const OUTPUT = join('libs', 'secret-detection', 'src', 'gitleaks-rules.generated.json');

interface TomlAllowlist {
  description?: string;
  condition?: string;
  regexTarget?: string;
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
  commits?: string[];
}

interface TomlRule {
  id: string;
  description?: string;
  regex?: string;
  path?: string;
  secretGroup?: number;
  entropy?: number;
  keywords?: string[];
  allowlists?: TomlAllowlist[];
  required?: unknown[];
  skipReport?: boolean;
}

interface TomlConfig {
  allowlist?: TomlAllowlist;
  rules: TomlRule[];
}

/** A compiled JavaScript equivalent, or throws with the translator's or the engine's reason. */
function convert(pattern: string): { source: string; flags: string } {
  const js = re2ToJs(pattern);
  new RegExp(js.source, `${js.flags}gd`);
  return js;
}

/** The allow list as it applies to text without a path or commit, or null when it never can. */
function allowlistOf(list: TomlAllowlist): GeneratedAllowlist | null {
  const condition = (list.condition ?? 'or').toLowerCase() === 'and' ? 'and' : 'or';
  const hasPathOrCommit = (list.paths?.length ?? 0) > 0 || (list.commits?.length ?? 0) > 0;
  if (condition === 'and' && hasPathOrCommit) return null;
  const regexes = (list.regexes ?? []).map(convert);
  const stopwords = (list.stopwords ?? []).map((word) => word.toLowerCase());
  if (regexes.length === 0 && stopwords.length === 0) return null;
  const target = list.regexTarget ?? 'secret';
  if (target !== 'secret' && target !== 'match' && target !== 'line') throw new Error(`regexTarget ${target}`);
  return { regexTarget: target, condition, regexes, stopwords };
}

function ruleOf(rule: TomlRule): GeneratedRule | { reason: string } {
  if (!rule.regex) return { reason: 'path-only rule (matches file names; Cairn scans text)' };
  if (rule.path) return { reason: `scoped to files matching ${rule.path} (Cairn's text has no path)` };
  if (rule.required?.length) return { reason: 'composite rule (required rules) not supported' };
  if (rule.skipReport) return { reason: 'skipReport: only a part of a composite rule' };
  try {
    const { source, flags } = convert(rule.regex.replaceAll(SECRET_SUFFIX, PROSE_SUFFIX));
    const allowlists = (rule.allowlists ?? []).map(allowlistOf).filter((list) => list !== null);
    return {
      id: rule.id,
      description: rule.description ?? '',
      source,
      flags,
      secretGroup: rule.secretGroup ?? 0,
      entropy: rule.entropy ?? 0,
      keywords: [...new Set((rule.keywords ?? []).map((keyword) => keyword.toLowerCase()))],
      allowlists,
    };
  } catch (error) {
    return { reason: `pattern not translatable: ${error instanceof Error ? error.message : String(error)}` };
  }
}

async function main(): Promise<void> {
  const [tomlPath, version] = process.argv.slice(2);
  if (!tomlPath || !version) {
    throw new Error('usage: generate-gitleaks-rules.js <path to config/gitleaks.toml> <module version, e.g. v8.30.1>');
  }
  const text = readFileSync(tomlPath, 'utf8');
  const config = parse(text) as unknown as TomlConfig;
  const rules: GeneratedRule[] = [];
  const dropped: { id: string; reason: string }[] = [];
  for (const rule of config.rules) {
    const result = ruleOf(rule);
    if ('reason' in result) dropped.push({ id: rule.id, reason: result.reason });
    else rules.push(result);
  }
  const globalAllowlist = allowlistOf({ ...config.allowlist, paths: [] });
  if (!globalAllowlist) throw new Error('the global allow list has no regexes or stopwords');
  const set: GeneratedRuleSet = {
    source: { module: MODULE, version, sha256: createHash('sha256').update(text).digest('hex') },
    globalAllowlist,
    rules,
    dropped,
  };

  // Run from the repository root, as `npm run` scripts are.
  const root = process.cwd();
  const licence = readLicence(tomlPath);
  // JSON has no comments: the provenance and gitleaks' licence travel as fields of their own.
  const body = JSON.stringify({
    generated:
      `by tools/secrets/generate-gitleaks-rules.ts from gitleaks' config/gitleaks.toml (${MODULE}@${version}); ` +
      'do not edit by hand: change the generator and run it again',
    licence: ["The rules are gitleaks', used under its licence:", ...licence],
    ...set,
  });
  const out = join(root, OUTPUT);
  if (!existsSync(join(out, '..'))) throw new Error(`run from the repository root (no ${join(OUTPUT, '..')} here)`);
  writeFileSync(out, await format(body, { filepath: out, ...(await prettierOptions(root)) }));
  process.stdout.write(`${rules.length} rules written to ${relative(root, out)}; ${dropped.length} dropped:\n`);
  for (const { id, reason } of dropped) process.stdout.write(`  ${id}: ${reason}\n`);
}

function readLicence(tomlPath: string): string[] {
  const licence = join(tomlPath, '..', '..', 'LICENSE');
  return readFileSync(licence, 'utf8').trim().split('\n');
}

async function prettierOptions(root: string): Promise<Record<string, unknown>> {
  return (await resolveConfig(join(root, OUTPUT))) ?? {};
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
