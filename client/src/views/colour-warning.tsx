/** Shown beside the factual question; the server decides when (see `unverifiableColours`). */
export const COLOUR_WARNING =
  'This question names a colour, but this chart is drawn from its table without the original colours: check the colour against the original chart or reject.';

/**
 * A warning that the question names colours ("the light green bar") the reviewer cannot see:
 * the chart on screen is drawn in the workbench's palette, not the original's colours.
 */
export function ColourWarning({ colours }: { colours: string[] }) {
  if (colours.length === 0) return null;
  return (
    <p className="notice notice-warning small" role="note" data-testid="colour-warning">
      {COLOUR_WARNING} <span className="muted">Named: {colours.join(', ')}.</span>
    </p>
  );
}
