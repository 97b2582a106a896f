import { errorMessage } from '../api/http';

/** A query that failed, in place of what it would have shown: "Could not load the runs: …". */
export function LoadError({ what, error }: { what: string; error: unknown }) {
  return (
    <p className="error" role="alert">
      Could not load {what}: {errorMessage(error)}
    </p>
  );
}

/** An action that failed, beside the controls that started it (a form's buttons, a run's controls). */
export function ActionError({ error }: { error: unknown }) {
  return (
    <span className="error" role="alert">
      {errorMessage(error)}
    </span>
  );
}
