import type { ChartSummary } from '@shared/api/charts';
import { CHART_TYPE_LABELS, type TypeEvidence, type TypeSource } from '@shared/domain/chart-types';

const SOURCE_TITLES: Record<TypeSource, string> = {
  annotation: 'Taken from the ChartQA annotation file',
  inferred: 'Inferred from the data table',
  curator: 'Set by a curator',
  extracted: 'Named by the vision model that read the table; confirmed with the table',
};

const EVIDENCE_TITLES: Record<TypeEvidence, string> = {
  questions: 'Decided by the mark words of the chart’s questions',
  vision: 'Decided by a vision model looking at the image',
};

/**
 * A chart's type and how it was decided (annotation, inferred, curator); an inferred type says
 * what decided it, or that nothing did yet (unconfirmed: the image may show another type).
 */
export function TypeBadge({ chart }: { chart: Pick<ChartSummary, 'chart_type' | 'type_source' | 'type_evidence' | 'type_confirmed'> }) {
  return (
    <span className="type-badge">
      {CHART_TYPE_LABELS[chart.chart_type]}{' '}
      <span className={`source-tag source-${chart.type_source}`} title={SOURCE_TITLES[chart.type_source]} data-testid="type-source">
        {chart.type_source}
      </span>
      {chart.type_evidence && (
        <span className="muted small" title={EVIDENCE_TITLES[chart.type_evidence]} data-testid="type-evidence">
          {' '}
          by {chart.type_evidence}
        </span>
      )}
      {!chart.type_confirmed && (
        <span
          className="source-tag type-unconfirmed"
          title={chart.type_source === 'extracted' ? 'Named by the vision model that read the table: confirming the table confirms it.' : 'Only the table’s shape suggests this type; the image may show another. Triage it under Charts → Chart types.'}
          data-testid="type-unconfirmed"
        >
          unconfirmed
        </span>
      )}
    </span>
  );
}
