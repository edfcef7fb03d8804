/**
 * A name the caller chose (an unknown field, a key in a path), as an error message may repeat it.
 * Input names end up in error bodies and logs, so a secret pasted as a key would be echoed there.
 * Names made of letters, `_`, `.` and `-` only are repeated: gitleaks' generic rule counts such a
 * value as no secret (its allow list `^[a-zA-Z_.-]+$`), and typos of field names look like that.
 * So are array indices. Any other name is described by its length alone.
 */
const REPEATABLE = /^(?:[A-Za-z_.-]{1,64}|\d{1,9})$/;

export function nameForMessage(name: PropertyKey): string {
  const text = String(name);
  return REPEATABLE.test(text) ? text : `<a ${text.length}-character name>`;
}

/** A path of such names, dot-separated. */
export function pathForMessage(path: readonly PropertyKey[]): string {
  return path.map(nameForMessage).join('.');
}
