import { createHash } from 'node:crypto';
import { type BodyOf } from '../../../api/rest-types';

type PutFilesBody = BodyOf<'/v1/projects/{project}/code/files', 'put'>;
type RecordRunBody = BodyOf<'/v1/projects/{project}/code/runs', 'post'>;
type RemoveFilesBody = BodyOf<'/v1/projects/{project}/code/files/remove', 'post'>;

/** One request the fake server answered: the route below `/v1/projects/{project}/code`. */
export interface Call {
  readonly method: string;
  readonly project: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly body: (PutFilesBody & RemoveFilesBody & RecordRunBody) | undefined;
}

/**
 * The server side of docs/code-index.md in memory, behind the client's fetch, for the specs
 * until the real routes exist: manifest pages (small, so the client must follow `next`),
 * uploads hashed as the server hashes them, removals, runs. Records every call and the most
 * requests in flight at once; `state.refuse` makes a PUT holding that path answer 413.
 */
export function fakeCodeIndexServer(pageSize = 2) {
  const files = new Map<string, { hash: string; size: number }>();
  const calls: Call[] = [];
  let inFlight = 0;
  const state = { mostInFlight: 0, refuse: undefined as string | undefined };
  const answer = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const fetch = async (input: Request | string | URL): Promise<Response> => {
    const request = input as Request;
    const url = new URL(request.url);
    const route = /^\/v1\/projects\/([^/]+)\/code(\/.*)$/.exec(url.pathname);
    const body = request.method === 'GET' ? undefined : ((await request.json()) as Call['body']);
    if (!route) return answer(404, { error: { code: 'not_found', message: `no route ${url.pathname}` } });
    const [, project, path] = route;
    calls.push({ method: request.method, project, path, query: url.searchParams, body });
    inFlight += 1;
    state.mostInFlight = Math.max(state.mostInFlight, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 2));
    inFlight -= 1;

    if (request.method === 'GET' && path === '/manifest') {
      const after = url.searchParams.get('after') ?? '';
      const rest = [...files.keys()].sort().filter((p) => p > after);
      const page = rest.slice(0, pageSize).map((p) => ({ path: p, ...files.get(p)! }));
      const next = rest.length > pageSize ? page[page.length - 1].path : null;
      return answer(200, { branch: 'main', commit: null, indexedAt: null, files: page, next });
    }
    if (request.method === 'PUT' && path === '/files' && body) {
      if (body.files.some((file) => file.path === state.refuse)) {
        return answer(413, { error: { code: 'payload_too_large', message: 'Request body is too large' } });
      }
      const indexed = body.files.map((file) => {
        const hash = createHash('sha256').update(file.content, 'utf8').digest('hex');
        files.set(file.path, { hash, size: Buffer.byteLength(file.content) });
        const redacted = file.content.includes('AKIA') ? [{ type: 'aws-access-key', count: 1 }] : [];
        return { path: file.path, hash, language: 'ts', symbols: 2, chunks: 1, unchanged: false, redacted };
      });
      return answer(200, { files: indexed });
    }
    if (request.method === 'POST' && path === '/files/remove' && body) {
      return answer(200, { removed: body.paths.filter((p) => files.delete(p)).length });
    }
    if (request.method === 'POST' && path === '/runs') {
      const run = { branch: 'main', commit: null, files: files.size, symbols: 2 * files.size, card: { version: 1 } };
      return answer(201, run);
    }
    return answer(404, { error: { code: 'not_found', message: `no route ${request.method} ${path}` } });
  };

  return { files, calls, state, fetch };
}
