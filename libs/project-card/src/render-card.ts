import { type ProjectCardView } from './contract/project-card.types';

/** Notes keep at least this much (or all of them) before list items are given up. */
const NOTES_FLOOR_CHARS = 200;

/** One list section as rendered: a title line, then its items (all, or the first `kept`). */
interface ListSection {
  readonly title: string;
  readonly items: readonly string[];
  /** Items on the title's line, comma-separated (the stack), instead of one per line. */
  readonly inline?: boolean;
  kept: number;
}

const more = (n: number) => `… ${n} more`;

/** A section's lines: the title and its kept items, and what was cut. */
function linesOf(section: ListSection): string[] {
  const kept = section.items.slice(0, section.kept);
  const cut = section.items.length - section.kept;
  if (section.inline) return [[section.title, [...kept, ...(cut > 0 ? [more(cut)] : [])].join(', ')].join(' ')];
  return [section.title, ...kept.map((item) => `- ${item}`), ...(cut > 0 ? [`- ${more(cut)}`] : [])];
}

function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? '…'.slice(0, max) : `${text.slice(0, max - 1).trimEnd()}…`;
}

function header(view: ProjectCardView): string {
  if (view.version === 0) return `Project card of ${view.project}: none yet.`;
  const parts: string[] = [];
  const from = view.derivedFrom;
  if (from) {
    const commit = from.commit ? `@${from.commit.slice(0, 12)}` : '';
    parts.push(`derived from ${from.branch}${commit} on ${from.at.slice(0, 10)}`);
  }
  if (view.edited.length > 0) parts.push(`edited: ${view.edited.join(', ')}`);
  return `Project card of ${view.project}, v${view.version}${parts.length ? ` (${parts.join('; ')})` : ''}`;
}

function sectionsOf(view: ProjectCardView): ListSection[] {
  const c = view.content;
  const why = (text: string) => (text ? `: ${text}` : '');
  const sections: ListSection[] = [
    { title: 'Stack:', items: c.stack, inline: true, kept: 0 },
    {
      title: 'Layout:',
      items: c.layout.map((item) => `${item.path} (${item.files} files)${why(item.summary)}`),
      kept: 0,
    },
    { title: 'Entry points:', items: c.entryPoints.map((item) => `${item.path}${why(item.why)}`), kept: 0 },
    { title: 'Build and test:', items: c.buildAndTest.map((item) => `\`${item.command}\`${why(item.why)}`), kept: 0 },
    { title: 'Conventions:', items: c.conventions, kept: 0 },
    { title: 'Hot files:', items: c.hotFiles.map((item) => `${item.path}${why(item.why)}`), kept: 0 },
  ];
  for (const section of sections) section.kept = section.items.length;
  return sections.filter((section) => section.items.length > 0);
}

function assemble(head: string, sections: readonly ListSection[], notes: string): string {
  const lines = [head, ...sections.flatMap(linesOf)];
  if (notes) lines.push('Notes:', notes);
  return lines.join('\n');
}

const notesLength = (notes: string) => (notes ? '\nNotes:\n'.length + notes.length : 0);

/**
 * A card as compact Markdown for an agent: a header line (version, where it was derived from,
 * which sections are edited), then stack, layout, entry points, build and test, conventions, hot
 * files and notes, empty sections left out. Deterministic, and at most `maxChars` long: notes
 * are shortened first (to a quarter of the room, at least 200 characters), then lists lose their
 * last items, the longest list first (on a tie the later section: stack and layout are kept
 * longest), each cut list saying "… n more"; then the notes go down to what is left, and last
 * the text itself is cut.
 */
export function renderCard(view: ProjectCardView, maxChars: number): string {
  const max = Math.max(0, Math.floor(maxChars));
  const head = header(view);
  const sections = sectionsOf(view);
  let notes = view.content.notes;
  // Lengths kept per section, so cutting one item costs that section's length, not the card's.
  const lengths = sections.map((section) => 1 + linesOf(section).join('\n').length);
  const listsLength = () => head.length + lengths.reduce((sum, n) => sum + n, 0);
  if (listsLength() + notesLength(notes) > max) {
    notes = clipText(notes, Math.max(NOTES_FLOOR_CHARS, Math.floor(max / 4)));
    while (listsLength() + notesLength(notes) > max) {
      let longest = -1;
      sections.forEach((section, index) => {
        if (section.kept > 0 && section.kept >= (sections[longest]?.kept ?? 0)) longest = index;
      });
      if (longest < 0) break;
      sections[longest].kept -= 1;
      lengths[longest] = 1 + linesOf(sections[longest]).join('\n').length;
    }
    const over = listsLength() + notesLength(notes) - max;
    if (over > 0 && notes) {
      // The notes give up what they can; dropped entirely when even their heading does not fit.
      const room = notes.length - over;
      notes = room >= 20 ? clipText(notes, room) : '';
    }
  }
  const text = assemble(head, sections, notes);
  return text.length <= max ? text : clipText(text, max);
}
