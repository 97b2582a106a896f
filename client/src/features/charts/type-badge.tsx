import { CHART_TYPE_LABELS, type ChartType, type TypeSource } from '@shared/domain/chart-types';

const SOURCE_TITLES: Record<TypeSource, string> = {
  annotation: 'Taken from the ChartQA annotation file',
  inferred: 'Inferred from the data table',
  curator: 'Set by a curator',
};

/** A chart's type and how it was decided (annotation, inferred, curator). */
export function TypeBadge({ type, source }: { type: ChartType; source: TypeSource }) {
  return (
    <span className="type-badge">
      {CHART_TYPE_LABELS[type]}{' '}
      <span className={`source-tag source-${source}`} title={SOURCE_TITLES[source]} data-testid="type-source">
        {source}
      </span>
    </span>
  );
}
