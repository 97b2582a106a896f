import { EVAL_MODES, type EvalMode } from '@shared/api/evaluations';
import { MODE_HINTS, MODE_LABELS } from './eval-format';

type ModeRadiosProps = {
  /** Radio groups on one page need distinct names. */
  name: string;
  value: EvalMode;
  onChange: (mode: EvalMode) => void;
  error?: string;
};

/** The evaluation modes, each with what it asks: one of them (an import's predictions answer one). */
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

type ConditionChecksProps = {
  value: readonly EvalMode[];
  onChange: (conditions: EvalMode[]) => void;
  error?: string;
};

/** The conditions one run asks, any number of them (at least one: the run's score is its first). */
export function ConditionChecks({ value, onChange, error }: ConditionChecksProps) {
  const errorId = 'start-conditions-error';
  const toggle = (mode: EvalMode, on: boolean) => onChange(on ? [...value, mode] : value.filter((other) => other !== mode));
  return (
    <fieldset className="mode-radios" aria-describedby={error ? errorId : undefined} data-testid="eval-conditions-field">
      <legend>Conditions</legend>
      {EVAL_MODES.map((mode) => (
        <label key={mode} title={`${MODE_LABELS[mode]} ${MODE_HINTS[mode]}`}>
          <input type="checkbox" name="conditions" value={mode} checked={value.includes(mode)} onChange={(event) => toggle(mode, event.target.checked)} /> {MODE_LABELS[mode]}
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
