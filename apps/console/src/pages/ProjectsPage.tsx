import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { useTenantSlug } from '../session';
import { useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { formatDate, Loading, PageHeader } from '../ui/layout';

/** The tenant's projects; each opens its memory browser. */
export function ProjectsPage() {
  const tenant = useTenantSlug();
  const list = useLoad(
    () => ok(api.GET('/v1/tenants/{slug}/projects', { params: { path: { slug: tenant } } })),
    [tenant],
  );
  return (
    <>
      <PageHeader title="Projects" />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading what="projects" />}
      {list.data && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Project</th>
              <th scope="col">Id</th>
              <th scope="col">Last seen</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.length === 0 && (
              <tr>
                <td colSpan={4}>No projects yet: agents create them as they connect, or an admin with the API.</td>
              </tr>
            )}
            {list.data.items.map((project) => (
              <tr key={project.id}>
                <td>
                  <Link href={`/projects/${project.slug}`}>{project.name}</Link>
                </td>
                <td>
                  <code>{project.slug}</code>
                </td>
                <td>{formatDate(project.lastSeenAt)}</td>
                <td>{formatDate(project.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
