import { spawn } from 'node:child_process';

/**
 * Copies one schema, structure and data, from one PostgreSQL to another with the PostgreSQL
 * client tools: `pg_dump --schema` piped into `psql --single-transaction`. pg_dump reads one
 * snapshot and writes tables, then their rows, then indexes, constraints and triggers, so no
 * trigger fires on a copied row and identity columns keep their values: the copy is the source.
 * The target gets all of it or nothing. Needs pg_dump and psql of at least the servers' major
 * version on the PATH (the image's postgresql-client).
 */
export async function copySchema(sourceUrl: string, targetUrl: string, schema: string): Promise<void> {
  const dump = spawn(
    'pg_dump',
    ['--schema', schema, '--no-owner', '--no-privileges', '--format', 'plain', '--dbname', sourceUrl],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const load = spawn(
    'psql',
    ['--no-psqlrc', '--quiet', '--single-transaction', '--set', 'ON_ERROR_STOP=1', '--dbname', targetUrl],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  dump.stdout.pipe(load.stdin);
  const [dumped, loaded] = await Promise.all([finished(dump, 'pg_dump'), finished(load, 'psql')]);
  // psql's failure first: when it stops, pg_dump fails too (on the closed pipe), which says less.
  const problems = [loaded, dumped].filter((problem) => problem !== undefined);
  if (problems.length > 0) throw new Error(problems.join('; '));
}

/** Resolves with a failure message (without the URLs, which carry passwords), or undefined on success. */
function finished(child: ReturnType<typeof spawn>, name: string): Promise<string | undefined> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 4_000) stderr += chunk.toString('utf8');
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve(`${name} could not start: ${error.message}`));
    child.on('close', (code) =>
      resolve(
        code === 0
          ? undefined
          : `${name} exited with ${code}: ${stderr.replace(/postgres(ql)?:\/\/\S+/g, '<url>').trim()}`,
      ),
    );
  });
}
