import { useId, type ReactNode } from 'react';

/** Props a field hands its control so the label, and any error, are tied to it. */
export type ControlProps = {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
};

type FieldProps = {
  label: ReactNode;
  /** Label beside the control instead of above it. */
  inline?: boolean;
  /** Keep the label for assistive technology only. */
  hiddenLabel?: boolean;
  className?: string;
  error?: string;
  /** One line under the control saying what the value does; read out with the control. */
  hint?: string;
  children: (control: ControlProps) => ReactNode;
};

/**
 * A label and its control, linked by id rather than by nesting, so the control's accessible
 * name is the label alone (a nested select would add its current option to the name).
 */
export function Field({ label, inline = false, hiddenLabel = false, className, error, hint, children }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy = [hint ? hintId : '', error ? errorId : ''].filter(Boolean).join(' ');
  const classes = ['field', inline ? 'field-inline' : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <label htmlFor={id} className={hiddenLabel ? 'sr-only' : undefined}>
        {label}
      </label>
      {children({ id, ...(error ? { 'aria-invalid': true } : {}), ...(describedBy ? { 'aria-describedby': describedBy } : {}) })}
      {hint && (
        <span className="field-hint" id={hintId}>
          {hint}
        </span>
      )}
      {error && (
        <span className="field-error" id={errorId} role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
