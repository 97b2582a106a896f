import { useState } from 'react';
import { EXPORT_FORMATS, type ExportFormat } from '../../../../shared/export/chart-hqa';
import { roleAtLeast } from '../../../../shared/domain/roles';
import { useCurrentUser } from '../../auth/session';

const FORMAT_LABELS: Record<ExportFormat, string> = {
  'chart-hqa': 'Chart-HQA JSON (stats + items)',
  chartqa: 'ChartQA question file ([{imgname, query, label}])',
  jsonl: 'JSON lines (one item per line)',
};

/**
 * Export for now; model runs and their scores are listed here once the evaluation runner has a
 * UI (today: `hqa eval` is still to come, `hqa score` scores predictions from the command line).
 */
export function EvaluationPage() {
  const user = useCurrentUser();
  const [format, setFormat] = useState<ExportFormat>('chart-hqa');
  const [full, setFull] = useState(false);
  const canExport = roleAtLeast(user.role, 'curator');
  const href = `/api/export?format=${format}${full && format !== 'chartqa' ? '&full=true' : ''}`;
  return (
    <section className="page">
      <title>Evaluation · Chart-HQA</title>
      <h1>Evaluation</h1>
      <h2>Export the dataset</h2>
      {canExport ? (
        <form className="export-form" onSubmit={(event) => event.preventDefault()}>
          <p className="muted">Only accepted items, with reviewers’ corrections applied, in a fixed order with stable ids.</p>
          <fieldset>
            <legend>Format</legend>
            {EXPORT_FORMATS.map((f) => (
              <label key={f}>
                <input type="radio" name="format" value={f} checked={format === f} onChange={() => setFormat(f)} /> {FORMAT_LABELS[f]}
              </label>
            ))}
          </fieldset>
          <label>
            <input type="checkbox" checked={full} disabled={format === 'chartqa'} onChange={(event) => setFull(event.target.checked)} /> Add provenance (edit, program,
            verifier, every review, run and model)
          </label>
          <p>
            <a className="button" href={href} download data-testid="export-download">
              Download
            </a>
          </p>
          <p className="muted">
            From the command line: <code>npm run --silent hqa -- export --out chart-hqa.json [--format …] [--full] [--images DIR]</code>; score a model’s
            predictions with <code>hqa score</code>.
          </p>
        </form>
      ) : (
        <p className="muted">Curators export the dataset.</p>
      )}
      <h2>Model runs</h2>
      <p className="placeholder">
        Model evaluation over an export: relaxed accuracy, decline rate against the factual questions, accuracy per answer type, a no-image control and
        the bias rate. Not built yet.
      </p>
    </section>
  );
}
