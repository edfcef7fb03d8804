import { type ReactNode } from 'react';
import {
  Button,
  type ButtonProps,
  FieldError,
  Input,
  Label,
  Text,
  TextField,
  type TextFieldProps,
} from 'react-aria-components';
import { describeError } from '../api/errors';

/** Shared form and feedback pieces: every page's fields, buttons and messages look and read the same. */

interface FieldProps extends Omit<TextFieldProps, 'children'> {
  readonly label: string;
  readonly description?: string;
  readonly placeholder?: string;
}

/** A labelled text field (with its description and validation message tied to it for screen readers). */
export function Field({ label, description, placeholder, ...props }: FieldProps) {
  return (
    <TextField className="field" {...props}>
      <Label>{label}</Label>
      <Input placeholder={placeholder} />
      {description && (
        <Text slot="description" className="field-description">
          {description}
        </Text>
      )}
      <FieldError className="field-error" />
    </TextField>
  );
}

export function PrimaryButton(props: ButtonProps) {
  return <Button {...props} className="button primary" />;
}

export function PlainButton(props: ButtonProps) {
  return <Button {...props} className="button" />;
}

export function DangerButton(props: ButtonProps) {
  return <Button {...props} className="button danger" />;
}

/** The API's error (or a network failure), announced to screen readers as it appears. */
export function ErrorMessage({ error }: { readonly error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <div role="alert" className="message error">
      {describeError(error)}
    </div>
  );
}

export function Notice({ children }: { readonly children: ReactNode }) {
  return (
    <div role="status" className="message notice">
      {children}
    </div>
  );
}

/** A labelled native select (keyboard and screen-reader behaviour of the platform). */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  id,
}: {
  readonly label: string;
  readonly value: T;
  readonly options: readonly { readonly value: T; readonly label: string }[];
  readonly onChange: (value: T) => void;
  readonly id: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as T)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
