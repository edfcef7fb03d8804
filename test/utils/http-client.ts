import { type NestFastifyApplication } from '@nestjs/platform-fastify';

export interface TestResponse<T = any> {
  readonly status: number;
  readonly body: T;
  readonly headers: Record<string, string | string[] | number | undefined>;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** A thin `inject` wrapper: JSON in, parsed JSON out, optional bearer token. */
export class TestClient {
  constructor(
    private readonly app: NestFastifyApplication,
    readonly token?: string,
  ) {}

  as(token: string | undefined): TestClient {
    return new TestClient(this.app, token);
  }

  get<T = any>(url: string) {
    return this.request<T>('GET', url);
  }
  post<T = any>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body);
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body);
  }

  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body);
  }
  delete<T = any>(url: string) {
    return this.request<T>('DELETE', url);
  }

  async request<T = any>(
    method: Method,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    const response = await this.app.inject({
      method,
      url,
      headers: {
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = response.body;
    let parsed: unknown = text;
    if (text && String(response.headers['content-type'] ?? '').includes('json')) parsed = JSON.parse(text);
    return { status: response.statusCode, body: parsed as T, headers: response.headers };
  }
}
