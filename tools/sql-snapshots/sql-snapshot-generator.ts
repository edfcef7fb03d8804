import { join } from 'node:path';
import { Test, type TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { type CairnConfig, ConfigModule } from '@cairn/config';
import {
  DatabaseModule,
  GeneratedArgument,
  SNAPSHOT_EXAMPLE as EX,
  type SqlSnapshotPlan,
  sqlSnapshotPlan,
  statementName,
} from '@cairn/db';
import { MemoriesRepository } from '@cairn/memory';
import { ObservabilityModule } from '@cairn/observability';
import { ProjectsModule } from '@cairn/projects';
import { schemaNameFor, TenancyModule, TenantDb, TenantEntry, TenantTransaction } from '@cairn/tenancy';
import { DataSource, getMetadataArgsStorage, type QueryRunner } from 'typeorm';
import { createExampleData, EXAMPLE_TENANT } from './example-data';
import { type RepositoryFile, repositoryFiles } from './repository-files';
import {
  boundKind,
  distinct,
  type MethodSection,
  normaliseStatement,
  type RenderedStatement,
  renderSnapshot,
} from './sql-rendering';
import {
  type CapturedStatement,
  oneConnection,
  type Recording,
  recordInto,
  tapStatements,
  trackRepositoryCalls,
} from './statement-capture';

type Class = abstract new (...args: never[]) => unknown;
type Callable = Record<string, (...args: unknown[]) => unknown>;

/** A repository class of a file, with each method's declared plan in source order. */
interface Repository {
  readonly cls: Class;
  readonly methods: readonly { readonly name: string; readonly plan: SqlSnapshotPlan | undefined }[];
  /** It reaches its tables through TenantDb: its examples run as the example tenant, in a tenant transaction. */
  readonly tenantScoped: boolean;
}

const ROOT = join(__dirname, '..', '..');
/** Nest marks every @Injectable class with this. */
const INJECTABLE = '__injectable__';
/** The example tenants' schema names are shown as these, so no file depends on how a schema is named. */
const SCHEMA_NAMES: readonly [string, string][] = [
  [schemaNameFor(EX.tenantId), 't_example'],
  [schemaNameFor(EX.newTenantId), 't_example_new'],
];

/** Every injectable class a repository file exports, with what each method declares. */
async function loadRepositories(file: RepositoryFile): Promise<Repository[]> {
  // By path, so a new repository is found without anyone listing it (tools reach libraries through
  // their entry points otherwise; most repositories are not exported from them).
  const exported = (await import(join(ROOT, file.path))) as Record<string, unknown>;
  return Object.values(exported)
    .filter((value): value is Class => typeof value === 'function' && Reflect.getMetadata(INJECTABLE, value) === true)
    .map((cls) => {
      const prototype = cls.prototype as Record<string, unknown>;
      const names = Object.getOwnPropertyNames(prototype).filter(
        (name) =>
          name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(prototype, name)?.value === 'function',
      );
      const dependencies = (Reflect.getMetadata('design:paramtypes', cls) ?? []) as unknown[];
      return {
        cls,
        methods: names.map((name) => ({ name, plan: sqlSnapshotPlan(prototype[name]) })),
        tenantScoped: dependencies.includes(TenantDb),
      };
    });
}

/** A failed example, for whoever is writing examples (SQL_SNAPSHOT_DEBUG=1 prints them). */
export interface ExampleFailure {
  readonly example: string;
  readonly error: string;
}

/**
 * Renders every repository's statements (docs/architecture.md, "Reviewing SQL"): builds the
 * repositories on a migrated test database, creates the example data, then calls each method
 * with each of its examples as the example tenant (tenant repositories) or on the control schema,
 * in a transaction rolled back afterwards, recording every statement the method itself sends.
 */
export class SqlSnapshotGenerator {
  readonly failures: ExampleFailure[] = [];
  /** Declared examples that sent no statement: each is a mistake in the examples. */
  readonly silent: string[] = [];
  private readonly described = new Map<string, { parameters: string[]; inferred: boolean }>();

  private constructor(
    private readonly moduleRef: TestingModule,
    private readonly files: readonly { file: RepositoryFile; repositories: readonly Repository[] }[],
  ) {}

  /** `config` names the migrated database to run on. */
  static async start(config: CairnConfig): Promise<SqlSnapshotGenerator> {
    const files = await Promise.all(
      repositoryFiles(ROOT).map(async (file) => ({ file, repositories: await loadRepositories(file) })),
    );
    const classes = files.flatMap(({ repositories }) => repositories.map((repository) => repository.cls));
    // Entities the repositories use (their files were loaded above), for the TypeORM Repository API.
    const entities = getMetadataArgsStorage().tables.map((table) => table.target as Class);
    const moduleRef = await Test.createTestingModule({
      imports: [
        ConfigModule.forRoot(config),
        ObservabilityModule,
        DatabaseModule,
        TenancyModule,
        ProjectsModule,
        TypeOrmModule.forFeature(entities),
      ],
      providers: classes as never[],
    }).compile();
    await moduleRef.init();
    const generator = new SqlSnapshotGenerator(moduleRef, files);
    await createExampleData((name) => generator.instance(name) as never, moduleRef.get(TenantEntry));
    return generator;
  }

  /** The snapshot text of every repository file, by snapshot path. */
  async generate(): Promise<Map<string, string>> {
    const dataSource = this.moduleRef.get(DataSource);
    // Made before anything is tracked: a value, as memory hands it to search for a recall.
    const corpus = this.moduleRef.get(MemoriesRepository).rankable({
      scope: {
        projectIds: [EX.projectId],
        includeTenantWide: true,
        viewer: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
      },
    });
    const generated = new Map<GeneratedArgument, unknown>([
      [GeneratedArgument.sqlRunner, (sql: string, parameters?: unknown[]) => dataSource.query(sql, parameters)],
      [GeneratedArgument.corpus, corpus],
      [GeneratedArgument.corpusTable, corpus.definition.table],
    ]);
    const untrack = trackRepositoryCalls(this.files.flatMap(({ repositories }) => repositories.map((r) => r.cls)));
    const untap = tapStatements(dataSource);
    const connection = await oneConnection(dataSource);
    try {
      const snapshots = new Map<string, string>();
      for (const { file, repositories } of this.files) {
        const sections: MethodSection[] = [];
        for (const repository of repositories) {
          for (const { name, plan } of repository.methods) {
            if (!plan) continue;
            const owner = repository.cls.name;
            if (plan.kind === 'exempt') {
              sections.push({ kind: 'exempt', owner, method: name, reason: plan.reason });
              continue;
            }
            const examples = [];
            for (const example of plan.examples) {
              const label = `${owner}.${name}${example.name ? ` (${example.name})` : ''}`;
              const params = example.params.map((param) =>
                param instanceof GeneratedArgument ? generated.get(param) : param,
              );
              const statements = await this.run(connection.runner, repository, name, params, label);
              if (statements.length === 0) this.silent.push(label);
              examples.push({ name: example.name, statements });
            }
            sections.push({ kind: 'examples', owner, method: name, examples });
          }
        }
        if (repositories.length > 0) snapshots.set(file.snapshot, renderSnapshot(file.path, sections));
      }
      return snapshots;
    } finally {
      await connection.close();
      untap();
      untrack();
    }
  }

  async close(): Promise<void> {
    await this.moduleRef.close();
  }

  private instance(className: string): unknown {
    for (const { repositories } of this.files) {
      const found = repositories.find((repository) => repository.cls.name === className);
      if (found) return this.moduleRef.get(found.cls, { strict: false });
    }
    throw new Error(`no repository class ${className}`);
  }

  /**
   * One example, in a transaction of its own on the one connection: a savepoint for the call (its
   * failure, say a row the example names does not exist, cannot spoil what follows), then the
   * statements' parameter types asked of PostgreSQL, then everything rolled back.
   */
  private async run(
    runner: QueryRunner,
    repository: Repository,
    method: string,
    params: readonly unknown[],
    label: string,
  ): Promise<RenderedStatement[]> {
    const instance = this.moduleRef.get<Class, Callable>(repository.cls, { strict: false });
    const recording: Recording = { owner: repository.cls, statements: [] };
    await runner.startTransaction();
    try {
      await runner.startTransaction();
      try {
        const call = async () => await recordInto(recording, () => instance[method](...params));
        await (repository.tenantScoped ? this.asExampleTenant(call) : call());
      } catch (error) {
        this.failures.push({ example: label, error: describeError(error) });
      }
      await runner.rollbackTransaction();
      return await this.describe(distinct(recording.statements), repository.tenantScoped);
    } finally {
      await runner.rollbackTransaction();
    }
  }

  private asExampleTenant<T>(work: () => Promise<T>): Promise<T> {
    const tx = this.moduleRef.get(TenantTransaction);
    return this.moduleRef.get(TenantEntry).run(EXAMPLE_TENANT, () => tx.run(work));
  }

  /**
   * Each statement's parameter types as PostgreSQL infers them from the text alone (PREPARE, in
   * the context it ran in); for a statement that cannot be prepared on its own (LOCK, SET, a
   * utility statement), the kinds of the values it was sent with.
   */
  private async describe(
    statements: readonly CapturedStatement[],
    tenantScoped: boolean,
  ): Promise<RenderedStatement[]> {
    const dataSource = this.moduleRef.get(DataSource);
    const typesOf = async (statement: CapturedStatement) => {
      const key = `${tenantScoped}:${statement.text}`;
      const known = this.described.get(key);
      if (known) return known;
      let found: { parameters: string[]; inferred: boolean };
      if (statement.values.length === 0) found = { parameters: [], inferred: true };
      else {
        await dataSource.query('SAVEPOINT cairn_describe');
        try {
          await dataSource.query(`PREPARE cairn_describe AS ${statement.text}`);
          const [row] = await dataSource.query<{ types: string[] }[]>(
            `SELECT parameter_types::text[] AS types FROM pg_prepared_statements WHERE name = 'cairn_describe'`,
          );
          await dataSource.query('DEALLOCATE cairn_describe');
          await dataSource.query('RELEASE SAVEPOINT cairn_describe');
          found = { parameters: row.types, inferred: true };
        } catch {
          await dataSource.query('ROLLBACK TO SAVEPOINT cairn_describe');
          found = { parameters: statement.values.map(boundKind), inferred: false };
        }
      }
      this.described.set(key, found);
      return found;
    };
    const render = async () => {
      const rendered: RenderedStatement[] = [];
      for (const statement of statements) {
        const { parameters, inferred } = await typesOf(statement);
        rendered.push({
          text: SCHEMA_NAMES.reduce(
            (text, [real, shown]) => text.replaceAll(real, shown),
            normaliseStatement(statement.text),
          ),
          parameters,
          inferred,
          preparedAs:
            statement.preparedAs === statementName(statement.text)
              ? '(named by the hash of its text)'
              : statement.preparedAs,
        });
      }
      return rendered;
    };
    return tenantScoped ? this.asExampleTenant(render) : render();
  }
}

function describeError(error: unknown): string {
  const { code, driverError, message } = (error ?? {}) as {
    code?: string;
    driverError?: { code?: string };
    message?: string;
  };
  return [driverError?.code ?? code, message ?? String(error)].filter(Boolean).join(' ');
}
