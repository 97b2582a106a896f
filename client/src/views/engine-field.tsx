import { Field } from '../ui/field';

type EngineFieldProps<E extends string> = {
  /** The engine that needs no API key: offered first, and what any other choice falls back to. */
  keyless: { value: E; label: string };
  value: E | 'openai';
  onChange: (engine: E | 'openai') => void;
  /** From `useOpenaiAvailability`: without a key the LLM option stays disabled. */
  openaiAvailable: boolean;
  error?: string;
};

/** The engine a run (generation or evaluation) is started with: a keyless engine, or the LLM. */
export function EngineField<E extends string>({ keyless, value, onChange, openaiAvailable, error }: EngineFieldProps<E>) {
  return (
    <Field label="Engine" error={error}>
      {(control) => (
        <select {...control} name="engine" value={value} onChange={(event) => onChange(event.target.value === 'openai' ? 'openai' : keyless.value)}>
          <option value={keyless.value}>{keyless.label}</option>
          <option value="openai" disabled={!openaiAvailable}>
            LLM (OpenAI API){openaiAvailable ? '' : ': no key'}
          </option>
        </select>
      )}
    </Field>
  );
}
