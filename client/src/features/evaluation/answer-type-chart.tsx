import { useMemo } from 'react';
import type { EvalComparisonRow } from '@shared/api/evaluations';
import { VegaFigure } from '../../ui/vega/vega-figure';
import { answerTypeFigure } from './eval-figures';

/** Table 4 as bars; the table beside it holds the exact numbers. */
export function AnswerTypeChart({ rows }: { rows: EvalComparisonRow[] }) {
  const figure = useMemo(() => answerTypeFigure(rows), [rows]);
  return (
    <VegaFigure
      figure={figure}
      label="Relaxed accuracy per answer type (integer, decimal, boolean, text), one bar per model"
      testId="answer-type-chart"
    />
  );
}
