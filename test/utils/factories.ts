import { randomBytes } from 'node:crypto';
import { type TestClient } from './http-client';

/** Unique, valid slugs so test files never collide. */
export function uniqueSlug(prefix = 't'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

function expectStatus(response: { status: number; body: unknown }, status: number, what: string): void {
  if (response.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export interface TenantFixture {
  readonly id: string;
  readonly slug: string;
  readonly schema: string;
}

/** Test data through the public admin API, the way an operator makes it. */
export async function createTenant(admin: TestClient, slug = uniqueSlug()): Promise<TenantFixture> {
  const response = await admin.post('/v1/tenants', { slug, name: `Tenant ${slug}` });
  expectStatus(response, 201, 'create tenant');
  return response.body;
}

export async function createUser(
  admin: TestClient,
  tenant: string,
  role: string,
  email = `${uniqueSlug('u')}@example.com`,
): Promise<{ id: string; email: string; role: string }> {
  const response = await admin.post(`/v1/tenants/${tenant}/users`, { email, name: 'Test User', role });
  expectStatus(response, 201, 'create user');
  return response.body;
}

export async function createProject(
  admin: TestClient,
  tenant: string,
  slug = uniqueSlug('p'),
): Promise<{ id: string; slug: string }> {
  const response = await admin.post(`/v1/tenants/${tenant}/projects`, { slug, name: `Project ${slug}` });
  expectStatus(response, 201, 'create project');
  return response.body;
}

export async function issueToken(
  admin: TestClient,
  tenant: string,
  body: {
    role: string;
    projects?: '*' | string[];
    userId?: string;
    agentId?: string;
    ttlSeconds?: number;
    defaultProject?: string;
    toolsets?: string[];
  },
): Promise<{ id: string; token: string; expiresAt: string }> {
  const response = await admin.post(`/v1/tenants/${tenant}/tokens`, { projects: '*', ...body });
  expectStatus(response, 201, 'issue token');
  return response.body;
}
