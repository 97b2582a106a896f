import { EVAL_MODES, type EvalMode } from '@shared/api/evaluations';
import { MODE_HINTS, MODE_LABELS } from './eval-format';

type ModeRadiosProps = {
  /** Radio groups on one page need distinct names. */
  name: string;
  value: EvalMode;
  onChange: (mode: EvalMode) => void;
  error?: string;
};

/** The three evaluation modes, each with what it asks. */
export function ModeRadios({ name, value, onChange, error }: ModeRadiosProps) {
  const errorId = `${name}-error`;
  return (
    <fieldset className="mode-radios" aria-describedby={error ? errorId : undefined}>
      <legend>Mode</legend>
      {EVAL_MODES.map((mode) => (
        <label key={mode} title={`${MODE_LABELS[mode]} ${MODE_HINTS[mode]}`}>
          <input type="radio" name={name} value={mode} checked={value === mode} onChange={() => onChange(mode)} /> {MODE_LABELS[mode]}
        </label>
      ))}
      {error && (
        <span className="field-error" id={errorId} role="alert">
          {error}
        </span>
      )}
    </fieldset>
  );
}
