import type { ImportReport } from '@shared/api/import';
import type { ImportFormat } from '@shared/domain/benchmark-fields';

/** The report `hqa import` prints: counts, then warnings and every refused file, named. */
export function ImportReportView({ format, report }: { format: ImportFormat; report: ImportReport }) {
  return (
    <div data-testid="import-report" aria-live="polite">
      <h3>
        Imported split {report.split} ({format})
      </h3>
      <ul>
        <li>{report.charts_imported} charts imported, {report.charts_updated} updated, {report.charts_skipped} unchanged</li>
        <li>{report.qas_imported} questions imported</li>
        {report.groups_imported > 0 && <li>{report.groups_imported} chart groups imported</li>}
        {report.images_missing !== undefined && <li>{report.images_missing} charts with their image missing</li>}
        <li>
          {report.items_reverified} items re-verified, {report.items_requeued} sent back to review (table changed)
        </li>
      </ul>
      {(report.warnings ?? []).map((warning) => (
        <p key={warning} className="warning" role="status" data-testid="import-warning">
          Warning: {warning}
        </p>
      ))}
      {report.errors.length > 0 ? (
        <table className="data-grid" data-testid="import-errors">
          <caption>{report.errors.length} file errors (those files or records were skipped; the rest imported)</caption>
          <thead>
            <tr>
              <th scope="col">File</th>
              <th scope="col">Problem</th>
            </tr>
          </thead>
          <tbody>
            {report.errors.map((error, index) => (
              <tr key={index}>
                <td>
                  {error.file}
                  {error.line !== undefined ? `:${error.line}` : ''}
                </td>
                <td>{error.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">No file errors.</p>
      )}
    </div>
  );
}
