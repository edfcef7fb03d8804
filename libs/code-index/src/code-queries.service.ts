import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, CairnError } from '@cairn/common';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { HybridSearch, normaliseQuery, QUERY_MAX_CHARS, type SearchMode, vectorSearchSettings } from '@cairn/search';
import { TenantTransaction } from '@cairn/tenancy';
import { type CodeBranch, CodeBranchesRepository } from './code-branches.repository';
import { type CodeChunkHit, CodeChunksRepository } from './code-chunks.repository';
import { CodeFilesRepository } from './code-files.repository';
import { type ReferenceHit, CodeSymbolsRepository } from './code-symbols.repository';
import { type ManifestEntry, type SymbolHit } from './contract/code-index.types';

export interface CodeSearchRequest {
  readonly query: string;
  readonly branch?: string;
  readonly mode: SearchMode;
  readonly limit: number;
  readonly kinds?: readonly string[];
}

export interface CodePassage extends CodeChunkHit {
  readonly score: number;
}

export interface CodeSearchResult {
  readonly branch: string;
  readonly commit: string | null;
  readonly symbols: SymbolHit[];
  readonly passages: CodePassage[];
  readonly mode: SearchMode;
  readonly notes: string[];
}

export interface SymbolLookup {
  readonly branch: string;
  readonly commit: string | null;
  readonly definitions: SymbolHit[];
  readonly references: ReferenceHit[];
  /** More references exist than were returned. */
  readonly moreReferences: boolean;
}

/** Names in a sentence looked up as symbols: at most this many (each is one indexed lookup). */
const NAMES_PER_QUESTION = 3;

/**
 * Words of a sentence that are spelled like code rather than prose: in backticks, with an
 * underscore or `$`, with a capital after a lower-case letter (camelCase, PascalCase with two
 * humps), or followed by `()`.
 */
export function codeNamesIn(sentence: string): string[] {
  const names = new Set<string>();
  for (const match of sentence.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`|([A-Za-z_$][\w$]*)(\(\))?/g)) {
    const name = match[1] ?? match[2];
    const codeLike =
      match[1] !== undefined || match[3] !== undefined || /[_$]/.test(name) || /[a-z0-9][A-Z]/.test(name);
    if (codeLike && name.length >= 3 && /[A-Za-z]/.test(name)) names.add(name);
    if (names.size >= NAMES_PER_QUESTION) break;
  }
  return [...names];
}

/** A name worth looking up as a symbol: one identifier-like word, or a dotted/qualified one. */
const SYMBOL_LIKE = /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/;

/**
 * Reading the code index: the manifest, search (symbol names, then passages by keyword and
 * meaning through the shared hybrid ranker) and symbol lookup (definitions and references).
 * A question that names no branch reads the branch indexed last.
 */
@Injectable()
export class CodeQueries {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly branches: CodeBranchesRepository,
    private readonly files: CodeFilesRepository,
    private readonly symbols: CodeSymbolsRepository,
    private readonly chunks: CodeChunksRepository,
    private readonly hybrid: HybridSearch,
  ) {}

  manifest(
    projectSlug: string,
    principal: SessionPrincipal,
    page: { branch: string; after?: string; limit: number },
  ): Promise<{
    branch: string;
    commit: string | null;
    indexedAt: Date | null;
    files: ManifestEntry[];
    next: string | null;
  }> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      const branch = await this.branches.find(project.id, page.branch);
      if (!branch) return { branch: page.branch, commit: null, indexedAt: null, files: [], next: null };
      const files = await this.files.manifest(branch.id, page.after ?? null, page.limit + 1);
      const more = files.length > page.limit;
      const shown = files.slice(0, page.limit);
      return {
        branch: branch.name,
        commit: branch.lastCommit,
        indexedAt: branch.indexedAt,
        files: shown,
        next: more ? shown[shown.length - 1].path : null,
      };
    });
  }

  async search(
    projectSlug: string,
    principal: SessionPrincipal,
    request: CodeSearchRequest,
  ): Promise<CodeSearchResult> {
    assertProjectAccess(principal, projectSlug);
    const query = normaliseQuery(request.query);
    if (query.length === 0 || query.length > QUERY_MAX_CHARS) {
      throw new BadRequestError(`query must contain 1-${QUERY_MAX_CHARS} characters of text`, undefined, 'bad_query');
    }
    // The model call comes first, outside the transaction: it holds no pooled connection.
    const queryVector = await this.hybrid.embedQuery(query, request.mode);
    return this.tx.run(async () => {
      const { branch } = await this.branchOf(projectSlug, request.branch);
      const symbols = await this.symbolsNamed(branch.id, query, request);
      const { ranked, report } = await this.hybrid.rank(this.chunks.corpus(branch.projectId, branch.id), {
        query,
        mode: request.mode,
        limit: request.limit,
        queryVector,
      });
      const rows = new Map((await this.chunks.hydrate(ranked.map((hit) => hit.id))).map((row) => [row.chunkId, row]));
      const passages = ranked.flatMap((hit) => {
        const row = rows.get(hit.id);
        return row ? [{ ...row, score: hit.score }] : [];
      });
      return {
        branch: branch.name,
        commit: branch.lastCommit,
        symbols,
        passages,
        mode: report.mode,
        notes: [...report.notes],
      };
    }, vectorSearchSettings(request.limit));
  }

  /**
   * Definitions the query names: a query that is one name (`CodeParser`, `Foo.bar`, `parse()`)
   * exactly or approximately; a sentence, exactly by the names in it that look like code
   * (`memory_topics`, `splitIdentifier`, `` `build` ``), so "why does splitIdentifier drop digits"
   * finds the function as well as the passages.
   */
  private async symbolsNamed(branchId: string, query: string, request: CodeSearchRequest): Promise<SymbolHit[]> {
    const whole = query.replace(/\(\)$/, '');
    const kinds = request.kinds ?? null;
    if (SYMBOL_LIKE.test(whole)) {
      const name = whole.split(/\.|::/).pop()!;
      return this.symbols.find(branchId, { name, kinds, fuzzy: true, limit: request.limit });
    }
    const hits: SymbolHit[] = [];
    for (const name of codeNamesIn(query)) {
      hits.push(...(await this.symbols.find(branchId, { name, kinds, fuzzy: false, limit: request.limit })));
    }
    return hits.slice(0, request.limit);
  }

  async symbol(
    projectSlug: string,
    principal: SessionPrincipal,
    request: { name: string; branch?: string; fuzzy: boolean; referencesLimit: number },
  ): Promise<SymbolLookup> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const { branch } = await this.branchOf(projectSlug, request.branch);
      const definitions = await this.symbols.find(branch.id, {
        name: request.name,
        kinds: null,
        fuzzy: request.fuzzy,
        limit: 20,
      });
      // References are by exact name: the defined spelling when found (case matters in code).
      const name = definitions.find((hit) => hit.score === 1)?.name ?? request.name;
      const references = await this.symbols.references(branch.id, name, request.referencesLimit + 1);
      const definedAt = new Set(definitions.map((hit) => `${hit.path}:${hit.startLine}`));
      const elsewhere = references.filter((ref) => !definedAt.has(`${ref.path}:${ref.line}`));
      return {
        branch: branch.name,
        commit: branch.lastCommit,
        definitions,
        references: elsewhere.slice(0, request.referencesLimit),
        moreReferences: elsewhere.length > request.referencesLimit,
      };
    });
  }

  /** The symbols one file defines, for an outline. */
  outlineOf(projectSlug: string, principal: SessionPrincipal, path: string, branchName?: string): Promise<SymbolHit[]> {
    assertProjectAccess(principal, projectSlug);
    return this.tx.run(async () => {
      const { branch } = await this.branchOf(projectSlug, branchName);
      return this.symbols.ofFile(branch.id, path);
    });
  }

  /** Inside a transaction: the named branch, or the one indexed last; 404 when the project has no index. */
  private async branchOf(
    projectSlug: string,
    name: string | undefined,
  ): Promise<{ project: ProjectRef; branch: CodeBranch }> {
    const project = await this.projects.resolve(projectSlug);
    const branch = name ? await this.branches.find(project.id, name) : await this.branches.newest(project.id);
    if (!branch) {
      throw new CairnError(
        404,
        'not_indexed',
        name
          ? `Branch "${name}" of project "${projectSlug}" is not indexed (run \`cairn index\` on it)`
          : `Project "${projectSlug}" has no code index yet (run \`cairn index\` in its repository)`,
      );
    }
    return { project, branch };
  }
}
