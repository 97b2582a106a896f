import type { ReactNode } from 'react';
import { Field } from './field';

type NumberFieldProps = {
  label: ReactNode;
  error?: string;
  name: string;
  /** The text as typed, so a half-typed number is not lost. */
  value: string;
  onChange: (text: string) => void;
  min: string;
  max?: string;
  step?: string;
  /** The on-screen keyboard: whole numbers, or with a decimal point. */
  inputMode?: 'numeric' | 'decimal';
};

/** A labelled number input of a settings-like form (run and evaluation starts). */
export function NumberField({ label, error, name, value, onChange, min, max, step, inputMode = 'numeric' }: NumberFieldProps) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <input
          {...control}
          name={name}
          type="number"
          inputMode={inputMode}
          step={step}
          min={min}
          max={max}
          className="number-input"
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
