/**
 * Converts a Go (RE2) regular expression, as gitleaks writes its rules, into the source and
 * flags of an equivalent JavaScript RegExp.
 *
 * Why a translator rather than copying the text: RE2 and JavaScript disagree in ways that
 * compile silently and then match differently.
 * - Inline flags: RE2 allows `(?i)` anywhere (it applies to the rest of the enclosing group),
 *   `(?i:…)`, `(?-i:…)` and `(?s:…)`. JavaScript has only whole-pattern flags, plus the ES2025
 *   modifier groups that Node 24 has but Node 22 (still supported, see package.json engines)
 *   does not. So a pattern that is case-insensitive throughout gets the `i` flag, and any other
 *   case-insensitive part is expanded into explicit classes (`a` → `[aA]`, `[a-f]` → `[a-fA-F]`),
 *   which every Node version runs.
 * - `.` is "anything but \n" in RE2 but also excludes \r, \u2028 and \u2029 in JavaScript:
 *   it becomes `[^\n]` (or `[\s\S]` under `s`).
 * - A class that starts with `]` (`[^]]`) holds a literal `]` in RE2 but is the empty/any class
 *   in JavaScript; POSIX classes (`[[:alnum:]]`) do not exist in JavaScript.
 * - `\z`, `\A`, `\Q…\E`, `(?P<name>…)` have other spellings.
 * Anything this translator does not know (Unicode classes, other flags) throws, so the generator
 * reports the rule as dropped instead of emitting a pattern that means something else.
 */

export interface JsRegex {
  readonly source: string;
  readonly flags: string;
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-\\/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

interface Flags {
  i: boolean;
  s: boolean;
}

const isLower = (c: string) => c >= 'a' && c <= 'z';
const isUpper = (c: string) => c >= 'A' && c <= 'Z';
const isLetter = (c: string) => isLower(c) || isUpper(c);
const swapCase = (c: string) => (isLower(c) ? c.toUpperCase() : c.toLowerCase());

/** Escapes that mean the same in both dialects (outside and inside classes). */
const SHARED_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B', 'n', 'r', 't', 'f', 'v']);

/** A character written so it stands for itself in a JavaScript class or pattern. */
function literal(c: string, inClass: boolean): string {
  const special = inClass ? /[\\\]^-]/ : /[\\^$.|?*+()[\]{}/]/;
  return special.test(c) ? `\\${c}` : c;
}

class Translator {
  private pos = 0;

  constructor(
    private readonly re: string,
    /** Emit case-insensitive parts as classes (false when the whole pattern gets the `i` flag). */
    private readonly expandCase: boolean,
  ) {}

  translate(flags: Flags): string {
    const out = this.sequence(flags);
    if (this.pos < this.re.length) throw new Error(`unbalanced ')' at ${this.pos}`);
    return out;
  }

  /** Alternatives up to the closing parenthesis of the current group (not consumed). */
  private sequence(outer: Flags): string {
    const flags = { ...outer };
    let out = '';
    while (this.pos < this.re.length) {
      const c = this.re[this.pos];
      if (c === ')') break;
      if (c === '(') out += this.group(flags);
      else if (c === '[') out += this.charClass(flags);
      else if (c === '\\') out += this.escape(flags);
      else if (c === '.') {
        this.pos += 1;
        out += flags.s ? '[\\s\\S]' : '[^\\n]';
      } else {
        this.pos += 1;
        out += this.maybeFold(c, flags);
      }
    }
    return out;
  }

  private maybeFold(c: string, flags: Flags): string {
    if (flags.i && this.expandCase && isLetter(c)) return `[${c}${swapCase(c)}]`;
    // `/` needs no escape in a RegExp built from a string; other metacharacters pass through.
    return c;
  }

  private group(flags: Flags): string {
    const start = this.pos;
    this.pos += 1; // (
    if (this.re[this.pos] !== '?') return `(${this.closeGroup(flags, start)}`;
    const rest = this.re.slice(this.pos + 1);
    if (rest.startsWith(':')) {
      this.pos += 2;
      return `(?:${this.closeGroup(flags, start)}`;
    }
    const named = /^P?<([A-Za-z_]\w*)>/.exec(rest);
    if (named) {
      // Numbered like any other group: gitleaks reads groups by number, and JS names must be unique.
      this.pos += 1 + named[0].length;
      return `(${this.closeGroup(flags, start)}`;
    }
    const inline = /^([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/.exec(rest);
    if (!inline) throw new Error(`unsupported group syntax at ${start}: ${this.re.slice(start, start + 8)}`);
    const next = applyFlags(flags, inline[1] ?? '', inline[2] ?? '');
    this.pos += 1 + inline[0].length;
    if (inline[3] === ')') {
      // `(?i)`: from here to the end of the enclosing group.
      Object.assign(flags, next);
      return '';
    }
    if (!this.expandCase && next.i !== flags.i) throw new Error('case flag change needs expansion');
    return `(?:${this.closeGroup(next, start)}`;
  }

  private closeGroup(flags: Flags, start: number): string {
    const inner = this.sequence(flags);
    if (this.re[this.pos] !== ')') throw new Error(`unclosed group opened at ${start}`);
    this.pos += 1;
    return `${inner})`;
  }

  private escape(flags: Flags): string {
    const c = this.re[this.pos + 1];
    if (c === undefined) throw new Error('trailing backslash');
    this.pos += 2;
    if (c === 'z') return '$'; // no `m` flag is ever emitted, so `$` is the end of the text
    if (c === 'A') return '^';
    if (c === 'Q') {
      const end = this.re.indexOf('\\E', this.pos);
      const text = this.re.slice(this.pos, end < 0 ? undefined : end);
      this.pos = end < 0 ? this.re.length : end + 2;
      return [...text].map((ch) => (isLetter(ch) ? this.maybeFold(ch, flags) : literal(ch, false))).join('');
    }
    if (SHARED_ESCAPES.has(c)) return `\\${c}`;
    if (c === 'x') return `\\x${this.hexEscape()}`;
    if (/[pPCGKXR0-9]/.test(c)) throw new Error(`unsupported escape \\${c}`);
    // Escaped punctuation is the character itself in both dialects.
    if (isLetter(c)) throw new Error(`unknown escape \\${c}`);
    return `\\${c}`;
  }

  /** After `\x`: two hex digits, or `{…}` with up to two significant digits. */
  private hexEscape(): string {
    if (this.re[this.pos] === '{') {
      const end = this.re.indexOf('}', this.pos);
      const value = parseInt(this.re.slice(this.pos + 1, end), 16);
      this.pos = end + 1;
      if (!(value <= 0xff)) throw new Error('\\x{…} above 0xFF needs Unicode mode');
      return value.toString(16).padStart(2, '0');
    }
    const hex = this.re.slice(this.pos, this.pos + 2);
    if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new Error(`bad \\x escape at ${this.pos}`);
    this.pos += 2;
    return hex;
  }

  private charClass(flags: Flags): string {
    const start = this.pos;
    this.pos += 1; // [
    let negated = false;
    if (this.re[this.pos] === '^') {
      negated = true;
      this.pos += 1;
    }
    const items: string[] = [];
    let first = true;
    while (this.pos < this.re.length) {
      const c = this.re[this.pos];
      if (c === ']' && !first) break;
      first = false;
      const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.re.slice(this.pos));
      if (posix) {
        const body = POSIX_CLASSES[posix[2] ?? ''];
        if (!body || posix[1]) throw new Error(`unsupported POSIX class ${posix[0]}`);
        items.push(body);
        this.pos += posix[0].length;
        continue;
      }
      const low = this.classAtom();
      if (this.re[this.pos] === '-' && this.re[this.pos + 1] !== ']' && this.re[this.pos + 1] !== undefined) {
        this.pos += 1;
        const high = this.classAtom();
        items.push(this.range(low, high, flags));
      } else {
        items.push(this.single(low, flags));
      }
    }
    if (this.re[this.pos] !== ']') throw new Error(`unclosed class opened at ${start}`);
    this.pos += 1;
    return `[${negated ? '^' : ''}${items.join('')}]`;
  }

  /** One class member: a character (`char`) or an escape kept as written (`escape`). */
  private classAtom(): { char?: string; escape?: string } {
    const c = this.re[this.pos];
    if (c !== '\\') {
      this.pos += 1;
      return { char: c };
    }
    const e = this.re[this.pos + 1];
    if (e === undefined) throw new Error('trailing backslash in class');
    this.pos += 2;
    if (SHARED_ESCAPES.has(e) && e !== 'b' && e !== 'B') return { escape: `\\${e}` };
    if (e === 'x') return { char: String.fromCharCode(parseInt(this.hexEscape(), 16)) };
    if (isLetter(e) || /[0-9]/.test(e)) throw new Error(`unsupported escape \\${e} in class`);
    return { char: e };
  }

  private single(atom: { char?: string; escape?: string }, flags: Flags): string {
    if (atom.escape) return atom.escape;
    const c = atom.char as string;
    const own = literal(c, true);
    return flags.i && this.expandCase && isLetter(c) ? `${own}${swapCase(c)}` : own;
  }

  private range(
    low: { char?: string; escape?: string },
    high: { char?: string; escape?: string },
    flags: Flags,
  ): string {
    if (low.escape || high.escape) throw new Error('class range with an escape class as an end');
    const a = low.char as string;
    const b = high.char as string;
    const own = `${literal(a, true)}-${literal(b, true)}`;
    if (!(flags.i && this.expandCase)) return own;
    // Fold the letters inside the range (the only case-sensitive part of an ASCII range).
    const folded: string[] = [own];
    for (const [from, to] of [
      ['a', 'z'],
      ['A', 'Z'],
    ] as const) {
      const lo = a > from ? a : from;
      const hi = b < to ? b : to;
      if (lo <= hi) folded.push(`${swapCase(lo)}-${swapCase(hi)}`);
    }
    return folded.join('');
  }
}

function applyFlags(flags: Flags, on: string, off: string): Flags {
  const next = { ...flags };
  for (const [letters, value] of [
    [on, true],
    [off, false],
  ] as const) {
    for (const flag of letters) {
      if (flag === 'i') next.i = value;
      else if (flag === 's') next.s = value;
      else throw new Error(`unsupported inline flag ${flag}`);
    }
  }
  return next;
}

/**
 * The JavaScript equivalent of an RE2 pattern. A pattern that starts with `(?i)` and never
 * switches case sensitivity off gets the `i` flag; every other case-insensitive part is expanded.
 */
export function re2ToJs(re2: string): JsRegex {
  const wholeInsensitive = re2.startsWith('(?i)') && !/\(\?[a-z]*-[a-z]*i/.test(re2);
  const body = wholeInsensitive ? re2.slice(4) : re2;
  const source = new Translator(body, !wholeInsensitive).translate({ i: wholeInsensitive, s: false });
  return { source, flags: wholeInsensitive ? 'i' : '' };
}
