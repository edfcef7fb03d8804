import { isDeepStrictEqual } from 'node:util';
import { BadRequestError, pathForMessage } from '@cairn/common';
import { projectCardContentSchema } from './contract/project-card.dto';
import {
  CARD_LIMITS as L,
  EMPTY_CARD_CONTENT,
  PROJECT_CARD_SECTIONS,
  type ProjectCardContent,
  type ProjectCardSection,
} from './contract/project-card.types';

/**
 * A stored card's content in section order, every section present: jsonb keeps keys in its own
 * order, and a version written before a section existed has none of it.
 */
export function contentOf(stored: object): ProjectCardContent {
  const sections = stored as Readonly<Record<string, unknown>>;
  const content: Record<string, unknown> = {};
  for (const section of PROJECT_CARD_SECTIONS) content[section] = sections[section] ?? EMPTY_CARD_CONTENT[section];
  return content as unknown as ProjectCardContent;
}

/** Stored section names, known ones only and in section order. */
export function sectionsOf(stored: readonly string[]): ProjectCardSection[] {
  return PROJECT_CARD_SECTIONS.filter((section) => stored.includes(section));
}

/** The derived content with the card's edited sections kept as they were edited. */
export function mergeDerived(
  current: ProjectCardContent,
  edited: readonly ProjectCardSection[],
  derived: ProjectCardContent,
): ProjectCardContent {
  const merged: Record<string, unknown> = {};
  for (const section of PROJECT_CARD_SECTIONS) {
    merged[section] = edited.includes(section) ? current[section] : derived[section];
  }
  return merged as unknown as ProjectCardContent;
}

/** Whether two contents say the same thing (key order aside). */
export function sameContent(a: ProjectCardContent, b: ProjectCardContent): boolean {
  return isDeepStrictEqual(contentOf(a), contentOf(b));
}

const clip = (text: unknown, max: number): string => {
  const flat = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '';
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const pathReason = (item: { path: string; why: string }) => ({
  path: clip(item.path, L.pathChars),
  why: clip(item.why, L.whyChars),
});

/**
 * What the code index derived, fitted to the card's limits (lists cut, texts shortened) and then
 * checked like an edit: a large repository must still get a card, never a failed index run.
 * Items left empty by shortening (a blank path) are dropped. Throws only on the wrong shape.
 */
export function fitDerived(derived: ProjectCardContent): ProjectCardContent {
  const lines = (items: readonly string[], max: number, count: number) =>
    items
      .map((item) => clip(item, max))
      .filter(Boolean)
      .slice(0, count);
  const fitted = {
    stack: lines(derived.stack ?? [], L.stackChars, L.stackItems),
    layout: (derived.layout ?? [])
      .map((item) => ({
        path: clip(item.path, L.pathChars),
        files: Math.min(Math.max(0, Math.trunc(item.files)), L.files),
        summary: clip(item.summary, L.whyChars),
      }))
      .filter((item) => item.path)
      .slice(0, L.layoutItems),
    entryPoints: (derived.entryPoints ?? [])
      .map(pathReason)
      .filter((item) => item.path)
      .slice(0, L.listItems),
    buildAndTest: (derived.buildAndTest ?? [])
      .map((item) => ({ command: clip(item.command, L.commandChars), why: clip(item.why, L.whyChars) }))
      .filter((item) => item.command)
      .slice(0, L.listItems),
    conventions: lines(derived.conventions ?? [], L.conventionChars, L.listItems),
    hotFiles: (derived.hotFiles ?? [])
      .map(pathReason)
      .filter((item) => item.path)
      .slice(0, L.listItems),
    notes: (derived.notes ?? '').slice(0, L.notesChars),
  };
  const parsed = projectCardContentSchema.safeParse(fitted);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BadRequestError(`Derived card content: ${pathForMessage(issue.path)}: ${issue.message}`);
  }
  return parsed.data;
}
