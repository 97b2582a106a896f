import { chartsApi } from '@shared/api/charts';
import { endpointUrl } from '@shared/api/endpoint';
import { UNCONFIRMED_TABLE_MARK, type TableState } from '@shared/table-provenance/table-state';

export const UNCONFIRMED_TABLE_TITLE =
  'The chart’s table was extracted from its image by a vision model and no curator has confirmed it: the verifier computed over a table that may misread the chart.';

/** The item-list tag of an item on an unconfirmed table; nothing otherwise. */
export function UnconfirmedTableTag({ state }: { state: TableState }) {
  if (state !== 'unconfirmed') return null;
  return (
    <span className="validity-tag validity-warning" title={UNCONFIRMED_TABLE_TITLE} data-flag="table_unconfirmed" data-testid="table-unconfirmed-tag">
      {UNCONFIRMED_TABLE_MARK}
    </span>
  );
}

/** The notice of the Item page and the review screen's question block. */
export function UnconfirmedTableNotice({ state }: { state: TableState }) {
  if (state !== 'unconfirmed') return null;
  return (
    <p className="notice notice-warning small" role="note" data-testid="validity-table-unconfirmed">
      <strong>{UNCONFIRMED_TABLE_MARK}</strong> — {UNCONFIRMED_TABLE_TITLE}
    </p>
  );
}

/**
 * On the review screen, for an item on an unconfirmed table: the chart's own image, large, above
 * everything drawn from the table. It is the ground truth here: judge the answer from the image,
 * the table, the counterfactual chart and the verifier may all carry a misread value.
 */
export function JudgeFromImage({ chartId, name, state }: { chartId: number; name: string; state: TableState }) {
  if (state !== 'unconfirmed') return null;
  const src = endpointUrl(chartsApi.image, { params: { id: chartId } });
  return (
    <section className="review-card judge-from-image" aria-labelledby="judge-from-image-heading" data-testid="judge-from-image">
      <h2 id="judge-from-image-heading">Judge from the image</h2>
      <p className="notice notice-warning small" role="note">
        <strong>{UNCONFIRMED_TABLE_MARK}.</strong> The table below was read from this image by a model and nobody has checked it: where the
        image and the table disagree, the image is right.
      </p>
      <img src={src} alt={`Original chart image: ${name}`} data-testid="judge-from-image-img" />
    </section>
  );
}
