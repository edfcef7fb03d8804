import { type EntityManager } from 'typeorm';

/**
 * The rows of an `UPDATE … RETURNING` (or DELETE/INSERT): TypeORM answers a bare UPDATE with
 * `[rows, count]` and other statements with the rows; this gives the rows either way, on the
 * pool's DataSource or a transaction's EntityManager.
 */
export async function queryReturning<T>(
  database: Pick<EntityManager, 'query'>,
  sql: string,
  parameters: unknown[],
): Promise<T[]> {
  const result = await database.query<unknown[]>(sql, parameters);
  return (Array.isArray(result[0]) ? result[0] : result) as T[];
}
