import type { ReportFigure, ReportTable, ScoreReport } from '@shared/eval/score-report';

/** Figures arrive rounded (percentages half-up to two decimals): shown as they are, with two places. */
function figureText(figure: ReportFigure): string {
  if (figure.value === null) return '—';
  return figure.unit === 'percent' ? `${figure.value.toFixed(2)} %` : String(figure.value);
}

function cellText(cell: string | number | null): string {
  return cell === null ? '—' : String(cell);
}

function ReportTableView({ table, index }: { table: ReportTable; index: number }) {
  const headingId = `score-report-table-${index}`;
  return (
    <div className="table-scroll">
      <h4 id={headingId}>{table.title}</h4>
      <table className="data-grid" aria-labelledby={headingId}>
        <thead>
          <tr>
            {table.columns.map((column, c) => (
              <th key={column} scope="col" className={c === 0 ? undefined : 'num'}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) =>
                c === 0 ? (
                  <th key={c} scope="row">
                    {cellText(cell)}
                  </th>
                ) : (
                  <td key={c} className="num">
                    {cellText(cell)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Any format's ScoreReport: its headline figures, its breakdown tables and its warnings, with no code per format. */
export function ScoreReportView({ report }: { report: ScoreReport }) {
  return (
    <section className="score-report" aria-label="Score report" data-testid="score-report">
      <h4>{report.title}</h4>
      <dl className="figures">
        {report.figures.map((figure) => (
          <div key={figure.label} data-testid="score-figure">
            <dt>{figure.label}</dt>
            <dd>
              {figureText(figure)}
              {figure.note && <span className="small muted"> {figure.note}</span>}
            </dd>
          </div>
        ))}
      </dl>
      {report.warnings.length > 0 && (
        <ul className="warnings" aria-label="Warnings">
          {report.warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      )}
      {report.tables.map((table, index) => (
        <ReportTableView key={table.title} table={table} index={index} />
      ))}
    </section>
  );
}
