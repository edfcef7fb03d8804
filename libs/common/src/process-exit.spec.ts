import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { exitWhenFlushed } from './process-exit';

/** Runs `exitWhenFlushed` itself in a child that writes a long report, read through pipes. */
function runChild(lines: number, code: number): Promise<{ stdout: string[]; stderr: string; code: number | null }> {
  const script = `${exitWhenFlushed.toString()}
    for (let i = 0; i < ${lines}; i++) process.stdout.write(JSON.stringify({ tenant: 'x'.repeat(100), i }) + '\\n');
    process.stdout.write('tenants: summary\\n');
    process.stderr.write('last words\\n');
    exitWhenFlushed(${code});
    setInterval(() => {}, 1000); // an open handle: the command must end anyway`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout: string[] = [];
  let stderr = '';
  createInterface({ input: child.stdout }).on('line', (line) => stdout.push(line));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('close', (exit) => resolve({ stdout, stderr, code: exit })));
}

describe('exitWhenFlushed', () => {
  it('delivers every line written before it through a pipe, then exits with the code', async () => {
    // process.exit() here delivered 212 of 5,001 lines on the development machine.
    const { stdout, stderr, code } = await runChild(5_000, 3);
    expect(stdout).toHaveLength(5_001);
    expect(stdout.at(-1)).toBe('tenants: summary');
    expect(stderr).toBe('last words\n');
    expect(code).toBe(3);
  });
});
