import type { ReactNode } from 'react';

/** A form's primary button, disabled and relabelled ("Starting…") while its request is on its way. */
export function SubmitButton({ pending, pendingLabel, children }: { pending: boolean; pendingLabel: string; children: ReactNode }) {
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? pendingLabel : children}
    </button>
  );
}
