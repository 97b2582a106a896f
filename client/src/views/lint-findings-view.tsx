import type { Finding } from '@shared/table/lint';

/** Layout-lint findings: severity, code and the sentence that explains them. */
export function LintFindingsView({ findings }: { findings: Finding[] }) {
  if (findings.length === 0) {
    return (
      <p className="ok" data-testid="tryit-lint-clean">
        No findings: the edited table still fits this chart type.
      </p>
    );
  }
  return (
    <ul className="tryit-lint" data-testid="tryit-lint">
      {findings.map((finding, index) => (
        <li key={index} className={`tryit-finding severity-${finding.severity}`} data-code={finding.code}>
          <span className="tryit-severity">{finding.severity}</span> <code className="tryit-code">{finding.code}</code>{' '}
          <span className="tryit-message">{finding.message}</span>
        </li>
      ))}
    </ul>
  );
}
