import { type paths } from './openapi';

/**
 * The REST API's paths, bodies, queries and answers as types, from the committed OpenAPI
 * document (`npm run cli:openapi`), for code that builds calls without openapi-fetch: the hooks'
 * node:http client and the offline queue's calls. Types only: nothing here is loaded at run time.
 */
export type RestMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type RestPath = keyof paths;

type Operation<P extends RestPath, M extends RestMethod> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

export type BodyOf<P extends RestPath, M extends RestMethod> =
  Operation<P, M> extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
export type AnswerOf<P extends RestPath, M extends RestMethod> =
  Operation<P, M> extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
export type QueryOf<P extends RestPath, M extends RestMethod> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The `{name}` placeholders of a path, as its parameters. */
export type PathParams<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? { readonly [K in N | keyof PathParams<Rest>]: string }
  : Record<never, string>;
