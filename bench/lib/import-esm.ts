/**
 * `import()` of an ES module from this CommonJS build. TypeScript compiles a literal `import()`
 * to `require()` under "module": "commonjs", and require() cannot load an ES module graph with
 * top-level await (vega 6, which the soak's charts use): a Function-built import() is left alone.
 */
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the one way to keep a real import() in CommonJS output
const dynamicImport = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;

export async function importEsm<T>(specifier: string): Promise<T> {
  return (await dynamicImport(specifier)) as T;
}
