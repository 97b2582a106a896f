import { useNavigate } from 'react-router';
import { roleAtLeast } from '@shared/domain/roles';
import { useCurrentUser } from '../../auth/session';
import { LoadError } from '../../ui/error-messages';
import { AnswerTypeChart } from './answer-type-chart';
import { AccuracyTable, AnswerTypeTable, FactualBaselineNote } from './comparison-tables';
import { UnsolvedQuestions } from './unsolved-questions';
import { useEvalComparison, useEvalRuns } from './eval-api';
import { EvalRunsTable, evalRunPath } from './eval-runs-table';
import { ExportPanel } from './export-panel';
import { ImportPredictionsForm } from './import-predictions-form';
import { PublishedFigures } from './published-figures';
import { ScoreFilePanel } from './score-file-panel';
import { StartEvalForm } from './start-eval-form';

function EvalRunList() {
  const navigate = useNavigate();
  const runs = useEvalRuns();
  if (runs.isPending) return <p className="muted">Loading evaluation runs…</p>;
  if (runs.isError) return <LoadError what="the evaluation runs" error={runs.error} />;
  if (runs.data.runs.length === 0) return <p className="empty">No evaluation runs yet.</p>;
  return <EvalRunsTable runs={runs.data.runs} onOpen={(run) => void navigate(evalRunPath(run.id))} />;
}

function EvalComparison() {
  const comparison = useEvalComparison();
  return (
    <section aria-labelledby="comparison-heading">
      <h2 id="comparison-heading">Comparison</h2>
      <p className="muted small page-intro">
        Each model’s latest finished run of each mode. Decline rate = |Acc<sub>QA</sub> − Acc<sub>HQA</sub>| / Acc<sub>QA</sub>; bias rate: questions whose
        assumption changes the answer, answered with the factual label instead. Both count only questions that are the factual question under an
        assumption.
      </p>
      {comparison.isPending && <p className="muted">Loading the comparison…</p>}
      {comparison.isError && <LoadError what="the comparison" error={comparison.error} />}
      {comparison.data && comparison.data.rows.length === 0 && (
        <p className="empty">No finished hypothetical-question run yet: a model gets a row once one of its runs in mode Hypothetical is done.</p>
      )}
      {comparison.data && comparison.data.rows.length > 0 && (
        <>
          <h3>Accuracy and decline rate</h3>
          <div className="table-scroll">
            <AccuracyTable rows={comparison.data.rows} />
          </div>
          <h3>By answer type</h3>
          <div className="table-scroll">
            <AnswerTypeTable rows={comparison.data.rows} />
          </div>
          <FactualBaselineNote />
          <AnswerTypeChart rows={comparison.data.rows} />
          <UnsolvedQuestions />
        </>
      )}
    </section>
  );
}

/**
 * The end of the loop: export the accepted items, ask models about them (or import what they
 * answered elsewhere), and compare the models as the paper's Tables 3 and 4 do.
 */
export function EvaluationPage() {
  const user = useCurrentUser();
  const isCurator = roleAtLeast(user.role, 'curator');
  return (
    <section className="page">
      <title>Evaluation · Chart-HQA</title>
      <h1>Evaluation</h1>
      <h2>Export the dataset</h2>
      {isCurator ? (
        <ExportPanel />
      ) : (
        <p className="muted">Curators export the dataset.</p>
      )}
      <h2>Model runs</h2>
      {isCurator ? (
        <div className="eval-forms">
          <StartEvalForm />
          <ImportPredictionsForm />
        </div>
      ) : (
        <p className="muted">Curators start evaluation runs and import predictions; you can follow them here.</p>
      )}
      <EvalRunList />
      <EvalComparison />
      <PublishedFigures />
      <ScoreFilePanel />
    </section>
  );
}
