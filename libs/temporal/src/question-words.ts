/**
 * Words that leave a question without a topic once its dates are gone: "what did I do last
 * Saturday?" asks about last Saturday and nothing else, so recall ranks by date alone.
 */
const QUESTION_WORDS: ReadonlySet<string> = new Set(
  `a about after again all am an and any anything are around as at be been before being but by can could
  did do does doing done during else for from get got had happen happened happening has have having he her
  him his how i if in into is it its just let lets me my of on or our ours over remind say said she show
  so some something stuff tell that the their them there these they thing things this those to up us was
  we were what whatever when where which while who whom why will with would you your go went going
  anyone everyone someone we've i've i'd we'd i'm`
    .split(/\s+/)
    .filter(Boolean),
);

/** Words that only place something in time. */
const DATE_WORDS: ReadonlySet<string> = new Set(
  `last next previous past this that day days week weeks month months year years ago earlier later
  before after time times today yesterday tomorrow tonight morning evening afternoon night`
    .split(/\s+/)
    .filter(Boolean),
);

export function isQuestionWord(word: string): boolean {
  return QUESTION_WORDS.has(word.toLowerCase());
}

export function isDateWord(word: string): boolean {
  return DATE_WORDS.has(word.toLowerCase());
}
