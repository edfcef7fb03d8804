import { type ReactNode, useState } from 'react';
import { DangerButton, ErrorMessage, PlainButton } from './forms';
import { ModalDialog } from './layout';

/**
 * The confirmation every irreversible action asks for: what will happen, then the action
 * (danger) and Cancel, which has the focus so Enter never destroys anything by accident. A
 * failure stays in the dialog with the server's message; success closes it, then `onDone` runs.
 */
export function ConfirmDialog({
  title,
  trigger,
  children,
  confirmLabel,
  onConfirm,
  onDone,
}: {
  readonly title: string;
  readonly trigger: ReactNode;
  readonly children: ReactNode;
  readonly confirmLabel: string;
  readonly onConfirm: () => Promise<unknown>;
  readonly onDone?: () => void;
}) {
  const [error, setError] = useState<unknown>(undefined);
  return (
    <ModalDialog title={title} trigger={trigger}>
      {(close) => (
        <>
          {children}
          <ErrorMessage error={error} />
          <div className="form-actions">
            <DangerButton
              onPress={() => {
                setError(undefined);
                onConfirm().then(() => {
                  close();
                  onDone?.();
                }, setError);
              }}
            >
              {confirmLabel}
            </DangerButton>
            <PlainButton onPress={close} autoFocus>
              Cancel
            </PlainButton>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
