import { Link } from 'wouter';
import { PageHeader } from '../ui/layout';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        There is no console page here. <Link href="/">Go to the start page</Link>.
      </p>
    </>
  );
}
