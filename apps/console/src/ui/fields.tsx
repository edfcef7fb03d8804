import { FieldError, Label, Text, TextArea, TextField, type TextFieldProps } from 'react-aria-components';

/** A labelled multi-line text field (description and validation message tied to it, as Field does). */
export function TextAreaField({
  label,
  description,
  errorMessage,
  rows = 4,
  ...props
}: Omit<TextFieldProps, 'children'> & {
  readonly label: string;
  readonly description?: string;
  /** Shown when the field is invalid (the browser's own message otherwise). */
  readonly errorMessage?: string;
  readonly rows?: number;
}) {
  return (
    <TextField className="field" {...props}>
      <Label>{label}</Label>
      <TextArea rows={rows} />
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error">{errorMessage}</FieldError>
    </TextField>
  );
}

/** A labelled native checkbox (the console's filters use the platform's own). */
export function CheckboxField({
  id,
  label,
  checked,
  onChange,
}: {
  readonly id: string;
  readonly label: string;
  readonly checked: boolean;
  readonly onChange: (checked: boolean) => void;
}) {
  return (
    <div className="field checkbox">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

/** Who did something, as the API names actors (an agent id, else a user id). */
export function actorName(actor: { readonly agentId: string | null; readonly userId: string | null } | null): string {
  if (!actor) return '—';
  return actor.agentId ?? (actor.userId ? `user ${actor.userId.slice(0, 8)}` : 'unknown');
}
