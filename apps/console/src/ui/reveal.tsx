import { useState } from 'react';
import { PlainButton } from './forms';

/**
 * A secret shown once (a token, a password link): a read-only field to select and a copy button,
 * with the copy's outcome announced. The caller says when it is dismissed.
 */
export function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const [copied, setCopied] = useState<string | undefined>(undefined);
  return (
    <>
      <div className="reveal-row">
        <label htmlFor={id}>{label}</label>
        <input id={id} className="token-value" readOnly value={value} onFocus={(e) => e.target.select()} />
        <PlainButton
          onPress={() => {
            navigator.clipboard.writeText(value).then(
              () => setCopied('Copied to the clipboard.'),
              () => setCopied('Copying failed: select the text and copy it by hand.'),
            );
          }}
        >
          Copy
        </PlainButton>
      </div>
      <p role="status">{copied}</p>
    </>
  );
}
