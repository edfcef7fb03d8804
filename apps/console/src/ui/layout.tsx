import { type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { PlainButton } from './forms';

/** Page frame pieces: headings, loading state, pager and the confirmation dialog. */

export function PageHeader({ title, children }: { readonly title: string; readonly children?: ReactNode }) {
  return (
    <header className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

export function Loading({ what }: { readonly what: string }) {
  return (
    <p role="status" className="loading">
      Loading {what}…
    </p>
  );
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** Previous / next over a cursor-paginated list. */
export function Pager({
  label,
  hasPrevious,
  hasNext,
  onPrevious,
  onNext,
  page,
}: {
  readonly label: string;
  readonly hasPrevious: boolean;
  readonly hasNext: boolean;
  readonly onPrevious: () => void;
  readonly onNext: () => void;
  readonly page: number;
}) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <PlainButton isDisabled={!hasPrevious} onPress={onPrevious}>
        Previous page
      </PlainButton>
      <span aria-live="polite">Page {page}</span>
      <PlainButton isDisabled={!hasNext} onPress={onNext}>
        Next page
      </PlainButton>
    </nav>
  );
}

/** A modal dialog opened by `trigger`; `children` gets a `close` function. */
export function ModalDialog({
  title,
  trigger,
  children,
  isOpen,
  onOpenChange,
}: {
  readonly title: string;
  readonly trigger?: ReactNode;
  readonly children: (close: () => void) => ReactNode;
  readonly isOpen?: boolean;
  readonly onOpenChange?: (open: boolean) => void;
}) {
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      {trigger}
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{title}</Heading>
                {children(close)}
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
