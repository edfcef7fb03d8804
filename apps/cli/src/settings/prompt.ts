import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';

/**
 * Asks for a secret on a terminal without echoing it: the question goes to stderr, the typed
 * characters go nowhere (Node's readline writes its echo to the muted stream). Only called when
 * stdin is a TTY; pipes and hooks pass the token through CAIRN_TOKEN instead.
 */
export async function promptHidden(
  question: string,
  io: { stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream },
): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      if (!muted) io.stderr.write(chunk);
      callback();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = true;
    const value = await answer;
    io.stderr.write('\n');
    return value.trim();
  } finally {
    rl.close();
  }
}
