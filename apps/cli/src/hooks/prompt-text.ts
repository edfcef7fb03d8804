/**
 * What the UserPromptSubmit hook asks recall: the prompt itself (a leading slash command's
 * name dropped), and the files it names.
 */

/** Words that carry no subject of their own: a prompt of nothing else ("ok", "continue", "yes do it") recalls nothing. */
const FILLER = new Set(
  `a an and are as at be but by can could do does did done for from go got had has have hi hello how i if in is it its
  just let lets me my no not now of ok okay on or please pls so sure that the then there these this those thx thanks
  thank to too try up us was we what when where which who why will with would yes yeah yep you your continue proceed
  next again more go ahead keep going fine good great nice cool perfect right same also still`.split(/\s+/),
);

/**
 * The prompt as a recall query, or none when it has fewer than two words that name anything
 * (one word matches any memory that happens to contain it, so coverage says nothing).
 */
export function promptQuery(prompt: string): string | undefined {
  const text = prompt
    .replace(/^\s*\/[\w:-]+\s*/, '') // "/review src/a.ts" asks about src/a.ts
    .replace(/\s+/g, ' ')
    .trim();
  const words = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*/gu) ?? [];
  const meaningful = words.filter((word) => word.length >= 2 && !FILLER.has(word));
  return meaningful.length >= 2 ? text.slice(0, 4_000) : undefined;
}

/** File paths a prompt names: `src/a/b.ts`, `@src/b.ts` (Claude Code's mention), `Footer.tsx`, `./x.py`. */
export function namedFiles(prompt: string): string[] {
  const found = new Set<string>();
  const candidates = prompt.matchAll(
    /(?:^|[\s(`'"])@?((?:\.{0,2}\/)?(?:[\w.-]+\/)*[\w-][\w.-]*\.[A-Za-z]\w{0,9})(?=$|[\s)`'",:;!?]|\.(?:\s|$))/g,
  );
  for (const match of candidates) {
    const path = (match[1] ?? '').replace(/^\.\//, '');
    const name = path.split('/').pop() ?? path;
    // A version ("v1.2"), an abbreviation ("e.g") or a word with a dot is not a file.
    if (/^v?\d+(\.\d+)+$/.test(path)) continue;
    if (!path.includes('/') && (!/\.[A-Za-z]{1,6}$/.test(name) || name.replace(/\.[^.]*$/, '').length < 2)) continue;
    found.add(path);
    if (found.size === 5) break;
  }
  return [...found];
}

/** File names too common to say what a memory is about (`src/index.ts` names no subject). */
const GENERIC_STEMS = new Set(
  'index main mod lib app utils util helpers types type config constants test tests spec readme package setup init'.split(
    ' ',
  ),
);

/**
 * Recall queries for named files, each asked on its own: the path as written (a memory naming
 * the same path matches it exactly) and its file name without extension when that names
 * something (`src/billing/proration.ts` → `proration`), so a memory that names only the module
 * matches too. Asked together with other words, a path's rarer siblings would outweigh it.
 */
export function fileQueries(files: readonly string[]): string[] {
  const queries = new Set<string>();
  for (const file of files.slice(0, 3)) {
    if (file.includes('/')) queries.add(file);
    const stem = (file.split('/').pop() ?? file).replace(/(\.[A-Za-z]\w*)+$/, '');
    if (stem.length >= 4 && !GENERIC_STEMS.has(stem.toLowerCase())) queries.add(stem);
  }
  return [...queries];
}
