import { AsyncLocalStorage } from 'node:async_hooks';
import { PreparedStatements, statementName } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type DataSource, type Logger, type QueryRunner } from 'typeorm';

/** One statement as a method sent it: its text, and the values bound to its placeholders. */
export interface CapturedStatement {
  readonly text: string;
  readonly values: readonly unknown[];
  /** The name it was prepared under, for named prepared statements. */
  readonly preparedAs?: string;
}

type Class = abstract new (...args: never[]) => unknown;

/** The statements of one example: those sent while a method of `owner` was the innermost repository call. */
export interface Recording {
  readonly owner: Class;
  readonly statements: CapturedStatement[];
}

/** The repository class whose method is running innermost (set by trackRepositoryCalls). */
const repositoryCalls = new AsyncLocalStorage<Class>();
/** The example being recorded, for everything its call awaits. */
const recordings = new AsyncLocalStorage<Recording>();

/**
 * Records `statement` for the example running, if it was sent by the example's own repository.
 * Statements of another repository it calls (a project's slug, tenant migrations) belong to that
 * repository's snapshot, and statements outside any repository call (the generator's own) to none.
 */
function record(statement: CapturedStatement): void {
  const recording = recordings.getStore();
  if (recording && repositoryCalls.getStore() === recording.owner) recording.statements.push(statement);
}

/** Runs `call` recording what it sends into `recording`. */
export function recordInto<T>(recording: Recording, call: () => T): T {
  return recordings.run(recording, call);
}

/**
 * TypeORM's logger is told of every statement a query runner sends (DataSource.query, the
 * transaction managers, the Repository API) before the statement runs, so one that fails (the
 * example's rows do not exist) is recorded too.
 */
class RecordingLogger implements Logger {
  logQuery(query: string, parameters?: unknown[]): void {
    record({ text: query, values: parameters ?? [] });
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

/** Replaces `object[name]` (a method) with `wrap(original)` until the returned function restores it. */
function replaceMethod<T extends object>(
  object: T,
  name: string,
  wrap: (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown,
): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(object, name);
  if (!descriptor || typeof descriptor.value !== 'function') throw new Error(`${name} is not a method`);
  Object.defineProperty(object, name, { ...descriptor, value: wrap(descriptor.value as never) });
  return () => Object.defineProperty(object, name, descriptor);
}

/**
 * Taps the three places a statement leaves Cairn: TypeORM's logger (every query runner), and the
 * two paths that send named prepared statements straight to pg (TenantDb.queryPrepared for hot
 * tenant statements, PreparedStatements for the token lookup). Returns the undo.
 */
export function tapStatements(dataSource: DataSource): () => void {
  const logger = dataSource.logger;
  dataSource.setOptions({ logger: new RecordingLogger() });
  const undo = [
    replaceMethod(
      TenantDb.prototype,
      'queryPrepared',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const [text, values] = args as [string, readonly unknown[]];
          record({ text, values, preparedAs: statementName(text) });
          return original.apply(this, args);
        },
    ),
    replaceMethod(
      PreparedStatements.prototype,
      'query',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          const [name, text, values] = args as [string, string, readonly unknown[]];
          record({ text, values, preparedAs: name });
          return original.apply(this, args);
        },
    ),
  ];
  return () => {
    undo.forEach((restore) => restore());
    dataSource.setOptions({ logger });
  };
}

/**
 * Marks every call of a method of `classes` (for whichever instance Nest made) as that
 * repository's, so a statement is attributed to the innermost repository that sent it. A method
 * one repository hands its own code (a callback: the work TenantConnections.transaction runs in
 * the transaction it opens) runs as part of the caller: the transaction around the caller's
 * statements is the caller's, and shows in its snapshot. Returns the undo.
 */
export function trackRepositoryCalls(classes: readonly Class[]): () => void {
  const undo = classes.flatMap((owner) =>
    Object.getOwnPropertyNames(owner.prototype)
      .filter((name) => name !== 'constructor')
      .filter((name) => typeof Object.getOwnPropertyDescriptor(owner.prototype, name)?.value === 'function')
      .map((name) =>
        replaceMethod(
          owner.prototype as object,
          name,
          (original) =>
            function (this: unknown, ...args: unknown[]) {
              const caller = repositoryCalls.getStore();
              const runsAs = caller && args.some(isCallback) ? caller : owner;
              return repositoryCalls.run(runsAs, () => original.apply(this, args));
            },
        ),
      ),
  );
  return () => undo.forEach((restore) => restore());
}

/** A function that is not a class (an entity, say). */
function isCallback(arg: unknown): boolean {
  return typeof arg === 'function' && !/^class\b/.test(Function.prototype.toString.call(arg));
}

/**
 * Routes every query runner of `dataSource` to one connection while the generator runs, so an
 * example's statements, the transactions its method opens (savepoints then) and the tenant
 * transaction around it all share the transaction the generator rolls back. The runner's release
 * is left to the generator. Returns that runner and the undo.
 */
export async function oneConnection(dataSource: DataSource): Promise<{ runner: QueryRunner; close(): Promise<void> }> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  const shared = new Proxy(runner, {
    get(target, property) {
      if (property === 'release') return () => Promise.resolve();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  const own = Object.getOwnPropertyDescriptor(dataSource, 'createQueryRunner');
  Object.defineProperty(dataSource, 'createQueryRunner', { value: () => shared, configurable: true, writable: true });
  return {
    runner,
    close: async () => {
      if (own) Object.defineProperty(dataSource, 'createQueryRunner', own);
      else delete (dataSource as { createQueryRunner?: unknown }).createQueryRunner;
      await runner.release();
    },
  };
}
