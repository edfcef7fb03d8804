import { type DataSource } from 'typeorm';

/** TypeORM answers a bare `UPDATE … RETURNING` with `[rows, count]`; this gives the rows either way. */
export async function returning<T>(dataSource: DataSource, sql: string, parameters: unknown[]): Promise<T[]> {
  const result = await dataSource.query<unknown[]>(sql, parameters);
  return (Array.isArray(result[0]) ? result[0] : result) as T[];
}
