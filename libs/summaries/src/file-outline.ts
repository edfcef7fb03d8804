import { capAtWord, meaningfulLines, oneLine } from '@cairn/generation';
import { L0_MAX_CHARS, L1_MAX_CHARS } from './contract/file-summary.types';

/** Exported or top-level symbols of common languages, one pattern per declaration style. */
const SYMBOL_PATTERNS: readonly RegExp[] = [
  // TypeScript / JavaScript
  /^export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/,
  /^(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/,
  // Python (top level only: no indentation)
  /^(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/,
  /^class\s+([A-Za-z_]\w*)/,
  // Go
  /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*[([]/,
  /^type\s+([A-Za-z_]\w*)\s+(?:struct|interface|func|map|\[)/,
  // Rust
  /^pub(?:\([^)]*\))?\s+(?:async\s+)?(?:fn|struct|enum|trait|mod|const|static|type)\s+([A-Za-z_]\w*)/,
  // Java, C#, Kotlin, Scala
  /^(?:public\s+|internal\s+)?(?:(?:abstract|final|sealed|static|data|partial)\s+)*(?:class|interface|enum|record|object|struct)\s+([A-Za-z_]\w*)/,
  // Ruby, Elixir
  /^(?:module|defmodule)\s+([A-Z][\w:.]*)/,
  // Shell
  /^(?:function\s+)?([A-Za-z_][\w-]*)\s*\(\)\s*\{/,
  // SQL
  /^create\s+(?:or\s+replace\s+)?(?:table|view|function|index|type)\s+(?:if\s+not\s+exists\s+)?([\w."]+)/i,
];

const HEADING = /^(#{1,6})\s+(.+?)\s*#*$/;
/** Only in markup are `#` lines headings; elsewhere (Python, shell, YAML) they are comments. */
const MARKUP_PATH = /\.(?:md|markdown|mdx|txt|rst)$/i;
const COMMENT_MARKERS = /^(?:\/\*\*?|\*\/|\*|\/\/+|#+!?|--|<!--|-->|;+|"""|''')\s*/;
const BOILERPLATE =
  /^(?:copyright|\(c\)|license|licensed|spdx-|eslint|prettier|@ts-|tslint|jshint|noqa|pylint|type:\s*ignore|-\*- coding|use strict)/i;
const PREAMBLE = /^(?:import\b|from\s+\S+\s+import\b|package\b|using\b|require\(|#include\b|use\s|'use |"use )/;

function headingsOf(path: string, lines: readonly string[]): { level: number; text: string }[] {
  if (!MARKUP_PATH.test(path)) return [];
  return lines.flatMap((line) => {
    const match = HEADING.exec(line);
    return match?.[1] && match[2] ? [{ level: match[1].length, text: match[2] }] : [];
  });
}

/** A comment line's text without its markers; '' for lines that are only markers. */
function commentText(line: string): string | undefined {
  if (line.startsWith('#!')) return ''; // a shebang says how to run the file, not what it is
  if (!COMMENT_MARKERS.test(line)) return undefined;
  return line
    .replace(COMMENT_MARKERS, '')
    .replace(/\s*(?:\*\/|-->|"""|''')\s*$/, '')
    .trim();
}

/**
 * L0 without a model: the file's first heading, else its first meaningful comment, else its
 * first line of code that is not an import, prefixed by the file's name.
 */
export function outlineL0(path: string, content: string): string {
  const lines = meaningfulLines(content).slice(0, 200);
  const heading = headingsOf(path, lines)[0]?.text;
  const comment = lines
    .map(commentText)
    .find((text): text is string => text !== undefined && /[A-Za-z]{3}/.test(text) && !BOILERPLATE.test(text));
  const code = lines.find((line) => commentText(line) === undefined && !PREAMBLE.test(line) && !BOILERPLATE.test(line));
  const name = path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  const what = oneLine(heading ?? comment ?? code ?? (lines.length === 0 ? 'empty file' : (lines[0] ?? '')));
  return capAtWord(`${name}: ${what}`, L0_MAX_CHARS);
}

/**
 * L1 without a model: size, headings, declared symbols and the first lines, each section
 * given what room is left so the outline always fits within L1_MAX_CHARS.
 */
export function outlineL1(path: string, content: string): string {
  const lines = meaningfulLines(content);
  const total = content.split(/\r?\n/).length;
  const headings = headingsOf(path, lines).map(({ level, text }) => `${'  '.repeat(level - 1)}${oneLine(text)}`);
  const symbols = [
    ...new Set(
      content
        .split(/\r?\n/)
        .flatMap((line) => SYMBOL_PATTERNS.map((pattern) => pattern.exec(line)?.[1]).filter(Boolean) as string[]),
    ),
  ];
  const opening = lines.filter((line) => !PREAMBLE.test(line) && !BOILERPLATE.test(line)).slice(0, 5);

  const sections: string[] = [`${oneLine(path)} (${total} line${total === 1 ? '' : 's'})`];
  if (headings.length > 0) sections.push(`Sections:\n${headings.slice(0, 30).join('\n')}`);
  if (symbols.length > 0) sections.push(`Declares: ${symbols.slice(0, 60).join(', ')}`);
  if (opening.length > 0) sections.push(`Begins:\n${opening.map((line) => capAtWord(oneLine(line), 160)).join('\n')}`);

  let outline = '';
  for (const section of sections) {
    const room = L1_MAX_CHARS - outline.length - (outline ? 2 : 0);
    if (room < 40) break;
    outline += (outline ? '\n\n' : '') + capAtWord(section, room);
  }
  return outline;
}
