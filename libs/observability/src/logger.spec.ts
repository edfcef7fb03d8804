import { Writable } from 'node:stream';
import { createRootLogger, PinoLoggerService } from './logger';

/** What a logger writes, line by line. */
function capture(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

// eslint-disable-next-line no-control-regex -- the colours of a terminal
const plain = (line: string) => line.replace(/\u001b\[[0-9;]*m/g, '');

describe('createRootLogger', () => {
  const event = { msg: 'embeddings/embed done in 42 ms: embedded 3', queue: 'embeddings', status: 'done' };

  it('writes a line a person reads to a terminal: time, level, app, component, message, then the fields', () => {
    const { stream, lines } = capture();
    const logger = new PinoLoggerService(createRootLogger('worker', 'info', { terminal: true, destination: stream }));
    logger.log(event, 'JobWorkers');
    expect(lines).toHaveLength(1);
    expect(plain(lines[0])).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: worker JobWorkers: embeddings\/embed done in 42 ms: embedded 3 \{"queue":"embeddings","status":"done"\}$/,
    );
  });

  it('redacts tokens in readable lines too', () => {
    const { stream, lines } = capture();
    createRootLogger('api', 'info', { terminal: true, destination: stream }).info({ token: 'cairn_st_x' }, 'hello');
    expect(lines.join('\n')).not.toContain('cairn_st_x');
    expect(lines.join('\n')).toContain('[redacted]');
  });
});
