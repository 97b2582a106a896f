import type { FactualQa } from '@shared/api/charts';

/** The chart's factual questions (ChartQA human and augmented). */
export function FactualQaTable({ qas }: { qas: FactualQa[] }) {
  if (qas.length === 0) return <p className="empty">No factual questions for this chart.</p>;
  return (
    <table className="data-grid qa-table" data-testid="qa-table">
      <thead>
        <tr>
          <th scope="col">Question</th>
          <th scope="col">Label</th>
          <th scope="col">Source</th>
        </tr>
      </thead>
      <tbody>
        {qas.map((qa) => (
          <tr key={qa.id}>
            <td>{qa.query}</td>
            <td className="mono">{qa.label}</td>
            <td>
              <span className={`source-tag source-${qa.source}`}>{qa.source}</span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
