import { type ReactNode } from 'react';
import { DangerButton, PlainButton } from './forms';
import { ModalDialog } from './layout';

/**
 * Disable (after confirmation) or enable a person's account: a tenant's user or a platform
 * operator. The buttons are described by `describedBy` (the row's email cell), so their names
 * stay short. `disable` and `enable` call the API; their outcome is the caller's to show.
 */
export function DisableOrEnable({
  email,
  disabled,
  describedBy,
  consequence,
  confirmLabel,
  disable,
  enable,
}: {
  email: string;
  disabled: boolean;
  describedBy: string;
  /** What disabling does, said in the dialog. */
  consequence: ReactNode;
  /** The dialog's confirming button, e.g. "Disable user". */
  confirmLabel: string;
  disable: () => void;
  enable: () => void;
}) {
  if (disabled) {
    return (
      <PlainButton aria-describedby={describedBy} onPress={enable}>
        Enable
      </PlainButton>
    );
  }
  return (
    <ModalDialog
      title={`Disable ${email}?`}
      trigger={<DangerButton aria-describedby={describedBy}>Disable</DangerButton>}
    >
      {(close) => (
        <>
          <p>{consequence}</p>
          <div className="form-actions">
            <DangerButton
              onPress={() => {
                close();
                disable();
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
