import { type Client } from 'openapi-fetch';
import { type CairnApi } from '../../api/cairn-client';

/*
 * The code-index routes (docs/code-index.md), declared by hand in the shape openapi-typescript
 * generates, because the server's routes are not in apps/api/contract/openapi.json yet. Once
 * they are, `npm run cli:openapi` puts them in api/openapi.ts: delete this file and call
 * `api.GET('/v1/projects/{project}/code/manifest', …)` on the CairnApi itself.
 */

/** One file the server has indexed on a branch. */
export interface ManifestFile {
  readonly path: string;
  /** SHA-256 (hex) of its UTF-8 content. */
  readonly hash: string;
  readonly size: number;
}

/** A page of a branch's manifest, in path order; `next` is the `after` of the next page, null on the last. */
export interface ManifestPage {
  readonly branch: string;
  readonly commit: string | null;
  readonly indexedAt: string | null;
  files: ManifestFile[];
  readonly next: string | null;
}

export interface PutFilesBody {
  readonly branch: string;
  readonly commit?: string;
  /** 1-100 files, each at most CODE_FILE_MAX_CHARS characters. */
  readonly files: readonly { readonly path: string; readonly content: string }[];
}

/** What the server made of one uploaded file. */
export interface IndexedFile {
  readonly path: string;
  readonly hash: string;
  readonly language: string | null;
  readonly symbols: number;
  readonly chunks: number;
  /** Its hash was already indexed on the branch (another agent uploaded it): nothing rewritten. */
  readonly unchanged: boolean;
  /** Secrets the server replaced with placeholders before keeping the text. */
  redacted: { type: string; count: number }[];
}

export interface PutFilesAnswer {
  files: IndexedFile[];
}

export interface RemoveFilesBody {
  readonly branch: string;
  /** 1-1,000 paths. */
  readonly paths: readonly string[];
}

export interface RemoveFilesAnswer {
  readonly removed: number;
}

export interface RecordRunBody {
  readonly branch: string;
  readonly commit?: string;
  readonly scanned: number;
  readonly uploaded: number;
  readonly removed: number;
  readonly skipped: number;
}

export interface RecordRunAnswer {
  readonly branch: string;
  readonly commit: string | null;
  readonly files: number;
  readonly symbols: number;
  readonly card: { readonly version: number };
}

// Answers with mutable arrays, as openapi-typescript writes them: openapi-fetch's mapping of the
// answer types loses the iterator of a readonly array.
type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type ProjectPath = { query?: never; header?: never; path: { project: string }; cookie?: never };
type NoOtherMethods<Except extends string> = {
  [
    M in 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace' as M extends Except ? never : M
  ]?: never;
};
type Unparameterised = { parameters: { query?: never; header?: never; path?: never; cookie?: never } };

/** The four routes, as openapi-typescript would write them into `paths`. */
export type CodeIndexPaths = {
  '/v1/projects/{project}/code/manifest': Unparameterised &
    NoOtherMethods<'get'> & {
      get: {
        parameters: Omit<ProjectPath, 'query'> & { query?: { branch?: string; after?: string; limit?: number } };
        requestBody?: never;
        responses: { 200: Json<ManifestPage> };
      };
    };
  '/v1/projects/{project}/code/files': Unparameterised &
    NoOtherMethods<'put'> & {
      put: {
        parameters: ProjectPath;
        requestBody: { content: { 'application/json': PutFilesBody } };
        responses: { 200: Json<PutFilesAnswer> };
      };
    };
  '/v1/projects/{project}/code/files/remove': Unparameterised &
    NoOtherMethods<'post'> & {
      post: {
        parameters: ProjectPath;
        requestBody: { content: { 'application/json': RemoveFilesBody } };
        responses: { 200: Json<RemoveFilesAnswer> };
      };
    };
  '/v1/projects/{project}/code/runs': Unparameterised &
    NoOtherMethods<'post'> & {
      post: {
        parameters: ProjectPath;
        requestBody: { content: { 'application/json': RecordRunBody } };
        responses: { 201: Json<RecordRunAnswer> };
      };
    };
};

/**
 * The same client (base URL, token, deadline, error mapping of `ok()`), typed for the code-index
 * routes: openapi-fetch's client is one object for any `paths`, only its types differ.
 */
export function codeIndexClient(api: CairnApi): Client<CodeIndexPaths> {
  return api as unknown as Client<CodeIndexPaths>;
}
