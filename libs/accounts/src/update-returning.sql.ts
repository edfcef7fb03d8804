import { type EntityManager } from 'typeorm';

/**
 * TypeORM answers a bare `UPDATE … RETURNING` with `[rows, count]`; this gives the rows either way
 * (on the pool's DataSource, or a transaction's EntityManager).
 */
export async function returning<T>(
  database: Pick<EntityManager, 'query'>,
  sql: string,
  parameters: unknown[],
): Promise<T[]> {
  const result = await database.query<unknown[]>(sql, parameters);
  return (Array.isArray(result[0]) ? result[0] : result) as T[];
}
